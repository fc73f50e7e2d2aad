# Writes what `cmake --install` puts beside the binary, from the built binary
# itself: a man page for lockgraph and for each command it has (the list is
# `lockgraph manpage --list`: a new command gets its page with no change
# here), merged with packaging/man/<page>.roff when there is one; the bash and
# zsh completions; the Debian changelog, compressed.
# cmake -DLOCKGRAPH=bin -DOUT=dir -DSOURCE_DIR=src -DDATE=YYYY-MM-DD -P generate_share.cmake
function(run_to_file file)
  execute_process(COMMAND ${ARGN} OUTPUT_FILE ${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed: ${rc}")
  endif()
endfunction()

file(REMOVE_RECURSE ${OUT}/man ${OUT}/bash-completion ${OUT}/zsh ${OUT}/doc)
file(MAKE_DIRECTORY ${OUT}/man/man1 ${OUT}/bash-completion/completions
     ${OUT}/zsh/vendor-completions ${OUT}/doc)

execute_process(COMMAND ${LOCKGRAPH} manpage --list OUTPUT_VARIABLE pages RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lockgraph manpage --list failed: ${rc}")
endif()
string(STRIP "${pages}" pages)
string(REPLACE "\n" ";" pages "${pages}")
foreach(page ${pages})
  string(REGEX REPLACE "^lockgraph-?" "" command "${page}")
  set(args manpage ${command} --date ${DATE})
  if(EXISTS ${SOURCE_DIR}/packaging/man/${page}.roff)
    list(APPEND args --include ${SOURCE_DIR}/packaging/man/${page}.roff)
  endif()
  run_to_file(${OUT}/man/man1/${page}.1 ${LOCKGRAPH} ${args})
  # Debian policy 12.3: man pages compressed with gzip -9n.
  run_to_file(${OUT}/man/man1/${page}.1.gz gzip -9nc ${OUT}/man/man1/${page}.1)
endforeach()

run_to_file(${OUT}/bash-completion/completions/lockgraph ${LOCKGRAPH} completion bash)
run_to_file(${OUT}/zsh/vendor-completions/_lockgraph ${LOCKGRAPH} completion zsh)
run_to_file(${OUT}/doc/changelog.gz gzip -9nc ${SOURCE_DIR}/packaging/debian/changelog)
run_to_file(${OUT}/doc/README.md.gz gzip -9nc ${SOURCE_DIR}/README.md)
