# `cmake --install` and the Debian package (cpack -G DEB): the binary, a man
# page per command, bash and zsh completions, docs, and lockgraph-follow.service
# with its system user and /etc/default/lockgraph. docs/packaging.md.
include(GNUInstallDirs)

# Man pages and completions are written at build time by the binary itself
# (`lockgraph manpage`, `lockgraph completion`), so they follow its options.
set(LOCKGRAPH_SHARE_DIR ${PROJECT_BINARY_DIR}/share)
string(TIMESTAMP LOCKGRAPH_MAN_DATE "%Y-%m-%d" UTC)  # honours SOURCE_DATE_EPOCH
file(GLOB LOCKGRAPH_MAN_INCLUDES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/packaging/man/*.roff)
add_custom_command(OUTPUT ${LOCKGRAPH_SHARE_DIR}/stamp
  # A sanitizer build's binary writes them too; its leak check belongs to the tests.
  COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
          ${CMAKE_COMMAND} -DLOCKGRAPH=$<TARGET_FILE:lockgraph> -DOUT=${LOCKGRAPH_SHARE_DIR}
          -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DDATE=${LOCKGRAPH_MAN_DATE}
          -P ${PROJECT_SOURCE_DIR}/cmake/generate_share.cmake
  COMMAND ${CMAKE_COMMAND} -E touch ${LOCKGRAPH_SHARE_DIR}/stamp
  DEPENDS lockgraph ${PROJECT_SOURCE_DIR}/cmake/generate_share.cmake ${LOCKGRAPH_MAN_INCLUDES}
          ${PROJECT_SOURCE_DIR}/packaging/debian/changelog ${PROJECT_SOURCE_DIR}/README.md
  COMMENT "Writing man pages and shell completions from lockgraph's --help"
  VERBATIM)
add_custom_target(lockgraph_share ALL DEPENDS ${LOCKGRAPH_SHARE_DIR}/stamp)

install(TARGETS lockgraph RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The server module, where src/module/server_module.cc looks for it from the
# binary: /usr/bin/../lib/lockgraph/lockgraph-servers.so.
if(TARGET lockgraph_servers)
  install(TARGETS lockgraph_servers LIBRARY DESTINATION lib/lockgraph)
endif()
install(DIRECTORY ${LOCKGRAPH_SHARE_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}
        FILES_MATCHING PATTERN "*.1.gz")
install(FILES ${LOCKGRAPH_SHARE_DIR}/bash-completion/completions/lockgraph
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${LOCKGRAPH_SHARE_DIR}/zsh/vendor-completions/_lockgraph
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright
        ${LOCKGRAPH_SHARE_DIR}/doc/changelog.gz ${LOCKGRAPH_SHARE_DIR}/doc/README.md.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(CODE "set(LOCKGRAPH_PACKAGING_DIR \"${PROJECT_SOURCE_DIR}/packaging\")
  set(LOCKGRAPH_SERVICE_TMP \"${PROJECT_BINARY_DIR}/share/service\")")
install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/install_service.cmake)

# The Debian package: lockgraph_<version>_amd64.deb, its Depends from
# dpkg-shlibdeps (dpkg-dev) plus adduser for the postinst.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lockgraph)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "lockgraph developers <maintainers@lockgraph.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "deadlock and lock-wait analyzer for database logs
Reads the evidence databases leave about deadlocks and lock waits (PostgreSQL
server logs in every layout, SQL Server deadlock reports, MySQL and MariaDB
InnoDB reports), rebuilds who waited for whom and prints every deadlock as
its exact wait-for cycle and every lock wait as a blocking chain, with rules
that name the cause and the fix. Text, JSON, NDJSON, Graphviz DOT, HTML,
SARIF, JUnit; a CI gate (lockgraph check) and a live view of pg_locks
(lockgraph watch).")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${PROJECT_SOURCE_DIR}/packaging/debian/postinst
  ${PROJECT_SOURCE_DIR}/packaging/debian/prerm
  ${PROJECT_SOURCE_DIR}/packaging/debian/postrm
  ${PROJECT_SOURCE_DIR}/packaging/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
include(CPack)
