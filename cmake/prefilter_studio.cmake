# The studio environment prefiltered, as the cache keeps it (render/environment_cache.h), for
# installs to ship in their data folder (share/rigview/env/prefiltered/): rigview renders the
# demo once with an empty cache folder of its own, and the entry that render writes is moved to
# OUT. Without a headless OpenGL context here (or if the render fails) OUT stays empty, with a
# warning: rigview then prefilters at its first start, as it would without the shipped entry.
# cmake -DRIGVIEW=build/rigview -DOUT=DIR -DSTAMP=FILE -P cmake/prefilter_studio.cmake
get_filename_component(scratch ${OUT}.scratch ABSOLUTE)
file(REMOVE_RECURSE ${OUT} ${scratch})
file(MAKE_DIRECTORY ${OUT} ${scratch})
get_filename_component(bindir ${RIGVIEW} DIRECTORY)
execute_process(COMMAND ${CMAKE_COMMAND} -E env XDG_CACHE_HOME=${scratch} RIGVIEW_NO_CACHE=0
                        ${RIGVIEW} render ${bindir}/share/rigview/demo/rigview_demo.gltf -o ${scratch}/demo.png --size 16x16
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
file(GLOB entries ${scratch}/rigview/env/*.bin)
if(rc EQUAL 0 AND entries)
  foreach(e ${entries})
    get_filename_component(name ${e} NAME)
    file(RENAME ${e} ${OUT}/${name})
  endforeach()
else()
  message(WARNING "the studio environment was not prefiltered for the data folder (render: ${rc} ${err}); "
                  "rigview will prefilter it at its first start")
endif()
file(REMOVE_RECURSE ${scratch})
file(TOUCH ${STAMP})
