# Installs lockgraph-follow.service, its environment file and its sysusers.d
# entry, with paths from the prefix of this install (not of the configure
# step): cpack installs with /usr, a user may `cmake --install --prefix ~/x`.
# As GNUInstallDirs does, the prefix /usr puts the configuration in /etc.
# Set before this script: LOCKGRAPH_PACKAGING_DIR, LOCKGRAPH_SERVICE_TMP.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(sysconfdir "/etc")
else()
  set(sysconfdir "${CMAKE_INSTALL_PREFIX}/etc")
endif()
set(LOCKGRAPH_DEFAULT_FILE "${sysconfdir}/default/lockgraph")
set(LOCKGRAPH_BINARY "${CMAKE_INSTALL_PREFIX}/bin/lockgraph")
configure_file(${LOCKGRAPH_PACKAGING_DIR}/systemd/lockgraph-follow.service.in
               ${LOCKGRAPH_SERVICE_TMP}/lockgraph-follow.service @ONLY)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE
     FILES ${LOCKGRAPH_SERVICE_TMP}/lockgraph-follow.service)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/sysusers.d" TYPE FILE
     FILES ${LOCKGRAPH_PACKAGING_DIR}/sysusers.conf RENAME lockgraph.conf)
file(INSTALL DESTINATION "${sysconfdir}/default" TYPE FILE
     FILES ${LOCKGRAPH_PACKAGING_DIR}/lockgraph.default RENAME lockgraph)
