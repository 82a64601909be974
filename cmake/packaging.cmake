# Install rules, desktop integration and the Debian package (included at the end of
# CMakeLists.txt).
#
# `cmake --install BUILD --prefix P` installs (component rigview, and license):
#   P/bin/rigview
#   P/share/rigview/                       the data folder: demo/, env/ (with env/prefiltered/,
#                                          the studio prefiltered at build time) (util/data_folder.h finds
#                                          it as ../share/rigview beside the executable's folder)
#   P/share/applications/io.github.rigview.rigview.desktop
#   P/share/metainfo/io.github.rigview.rigview.metainfo.xml
#   P/share/mime/packages/rigview.xml      the file types freedesktop.org does not define
#   P/share/thumbnailers/rigview.thumbnailer
#   P/share/icons/hicolor/{scalable,NxN}/apps/rigview.{svg,png}
#   P/share/man/man1/rigview.1.gz
#   P/share/bash-completion/completions/rigview, P/share/zsh/vendor-completions/_rigview,
#   P/share/fish/vendor_completions.d/rigview.fish
#   P/share/doc/rigview/{LICENSE,THIRD_PARTY.md}
# Component debian (only in the .deb): share/doc/rigview/{copyright,changelog.gz}, Debian's
# forms of the license and the version. Component python: the Python package
# (python/CMakeLists.txt). tools/package.sh runs CPack on this.
include(GNUInstallDirs)

# The version and its date at configure time, for the package and the files that carry them
# (the binary makes its own at build time by the same rule: tools/package.sh configures again
# before it packages, so the two agree).
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
                        -DOUT=${CMAKE_BINARY_DIR}/generated/version.txt -DFORMAT=text -P ${PROJECT_SOURCE_DIR}/cmake/version.cmake)
file(STRINGS ${CMAKE_BINARY_DIR}/generated/version.txt RIGVIEW_VERSION_FULL LIMIT_COUNT 1)
find_program(GIT_EXECUTABLE git)
set(_epoch "")
if(GIT_EXECUTABLE AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} log -1 --format=%ct OUTPUT_VARIABLE _epoch
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(_epoch MATCHES "^[0-9]+$")
  set(ENV{SOURCE_DATE_EPOCH} ${_epoch})  # string(TIMESTAMP) below gives the commit's date
endif()
string(TIMESTAMP RIGVIEW_RELEASE_DATE "%Y-%m-%d" UTC)
string(TIMESTAMP _weekday "%a" UTC)
string(TIMESTAMP _rest "%d %b %Y %H:%M:%S" UTC)
set(RIGVIEW_RELEASE_DATE_RFC2822 "${_weekday}, ${_rest} +0000")
set(RIGVIEW_PACKAGE_MAINTAINER "The rigview developers <rigview@users.noreply.github.com>" CACHE STRING
    "Maintainer of the Debian package (name <address>)")

# The file types rigview opens, for the desktop entry, the thumbnailer and the metainfo: the
# freedesktop.org types it reads, and those rigview's own MIME file defines.
set(RIGVIEW_FREEDESKTOP_MIME_TYPES
    model/gltf+json model/gltf-binary model/obj model/stl model/x.stl-ascii model/x.stl-binary model/3mf
    image/x-3ds image/x-lwo)
set(_packaging ${PROJECT_SOURCE_DIR}/tools/packaging)
file(STRINGS ${_packaging}/rigview-mime.xml _types REGEX "<mime-type type=\"")
set(_own_types)
foreach(_line ${_types})
  string(REGEX REPLACE ".*<mime-type type=\"([^\"]+)\".*" "\\1" _t "${_line}")
  list(APPEND _own_types ${_t})
endforeach()
set(_all_types ${RIGVIEW_FREEDESKTOP_MIME_TYPES} ${_own_types})
list(JOIN _all_types ";" RIGVIEW_MIME_TYPES)
string(APPEND RIGVIEW_MIME_TYPES ";")  # the desktop entry's form: each ended by ';' 
set(RIGVIEW_METAINFO_MEDIATYPES "")
foreach(_t ${_all_types})
  string(APPEND RIGVIEW_METAINFO_MEDIATYPES "    <mediatype>${_t}</mediatype>\n")
endforeach()
string(REGEX REPLACE "\n$" "" RIGVIEW_METAINFO_MEDIATYPES "${RIGVIEW_METAINFO_MEDIATYPES}")

set(_gen ${CMAKE_BINARY_DIR}/packaging)
configure_file(${_packaging}/io.github.rigview.rigview.desktop.in ${_gen}/io.github.rigview.rigview.desktop @ONLY)
configure_file(${_packaging}/rigview.thumbnailer.in ${_gen}/rigview.thumbnailer @ONLY)
configure_file(${_packaging}/io.github.rigview.rigview.metainfo.xml.in ${_gen}/io.github.rigview.rigview.metainfo.xml @ONLY)
configure_file(${_packaging}/changelog.in ${_gen}/changelog @ONLY)

# Written at build time: the manual page and the completions (by the rigview binary, from its
# option table), the icon's PNG sizes (by rsvg-convert from the SVG), the changelog gzip'd,
# the prefiltered studio.
set(RIGVIEW_ICON_SIZES 16 22 24 32 48 64 128 256)
find_program(RSVG_CONVERT rsvg-convert)
find_program(GZIP_EXECUTABLE gzip REQUIRED)
set(_generated ${_gen}/rigview.1.gz ${_gen}/bash/rigview ${_gen}/zsh/_rigview ${_gen}/fish/rigview.fish)
add_custom_command(OUTPUT ${_generated}
                   COMMAND ${CMAKE_COMMAND} -DRIGVIEW=$<TARGET_FILE:rigview> -DOUT=${_gen} -P ${PROJECT_SOURCE_DIR}/cmake/generate_docs.cmake
                   DEPENDS rigview ${PROJECT_SOURCE_DIR}/cmake/generate_docs.cmake
                   COMMENT "rigview.1 and the shell completions, from the option table")
add_custom_command(OUTPUT ${_gen}/changelog.gz
                   COMMAND ${GZIP_EXECUTABLE} -9nc ${_gen}/changelog > ${_gen}/changelog.gz
                   DEPENDS ${_gen}/changelog)
set(_icons)
if(RSVG_CONVERT)
  foreach(_s ${RIGVIEW_ICON_SIZES})
    add_custom_command(OUTPUT ${_gen}/icons/${_s}x${_s}/rigview.png
                       COMMAND ${CMAKE_COMMAND} -E make_directory ${_gen}/icons/${_s}x${_s}
                       COMMAND ${RSVG_CONVERT} -w ${_s} -h ${_s} ${_packaging}/rigview.svg -o ${_gen}/icons/${_s}x${_s}/rigview.png
                       DEPENDS ${_packaging}/rigview.svg)
    list(APPEND _icons ${_gen}/icons/${_s}x${_s}/rigview.png)
  endforeach()
else()
  message(WARNING "rsvg-convert not found (Debian: librsvg2-bin): the icon is installed as SVG only")
endif()
# The studio environment prefiltered for the data folders installs ship (the .deb, cmake
# --install, the Python package), so a first start or a sandboxed thumbnailer (no cache folder)
# skips the prefilter (render/environment_cache.h). Not in the build tree's own data folder:
# there the tests check levels computed by the code they test.
set(RIGVIEW_PREFILTERED ${_gen}/prefiltered)
add_custom_command(OUTPUT ${_gen}/prefiltered.stamp
                   COMMAND ${CMAKE_COMMAND} -DRIGVIEW=$<TARGET_FILE:rigview> -DOUT=${RIGVIEW_PREFILTERED}
                           -DSTAMP=${_gen}/prefiltered.stamp -P ${PROJECT_SOURCE_DIR}/cmake/prefilter_studio.cmake
                   DEPENDS rigview rigview_data ${PROJECT_SOURCE_DIR}/cmake/prefilter_studio.cmake
                   COMMENT "The studio environment, prefiltered for installs")
add_custom_target(rigview_prefiltered_studio DEPENDS ${_gen}/prefiltered.stamp)

# Part of a whole build, except in sanitizer and fuzz builds (nothing is installed from those).
set(_all ALL)
if(RIGVIEW_SANITIZE OR RIGVIEW_FUZZ)
  set(_all "")
endif()
add_custom_target(rigview_desktop_files ${_all} DEPENDS ${_generated} ${_gen}/changelog.gz ${_icons} ${_gen}/prefiltered.stamp
                  COMMENT "Desktop integration: manual page, completions, icons, the prefiltered studio")

# Component rigview: the program and what a desktop needs of it.
install(TARGETS rigview RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT rigview)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rigview COMPONENT rigview)
install(DIRECTORY ${RIGVIEW_PREFILTERED} DESTINATION ${CMAKE_INSTALL_DATADIR}/rigview/env COMPONENT rigview)
install(FILES ${_gen}/io.github.rigview.rigview.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT rigview)
install(FILES ${_gen}/io.github.rigview.rigview.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT rigview)
install(FILES ${_packaging}/rigview-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME rigview.xml
        COMPONENT rigview)
install(FILES ${_gen}/rigview.thumbnailer DESTINATION ${CMAKE_INSTALL_DATADIR}/thumbnailers COMPONENT rigview)
install(FILES ${_packaging}/rigview.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT rigview)
if(RSVG_CONVERT)
  foreach(_s ${RIGVIEW_ICON_SIZES})
    install(FILES ${_gen}/icons/${_s}x${_s}/rigview.png DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${_s}x${_s}/apps
            COMPONENT rigview)
  endforeach()
endif()
install(FILES ${_gen}/rigview.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT rigview)
install(FILES ${_gen}/bash/rigview DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT rigview)
install(FILES ${_gen}/zsh/_rigview DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT rigview)
install(FILES ${_gen}/fish/rigview.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT rigview)
install(FILES ${PROJECT_SOURCE_DIR}/THIRD_PARTY.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT rigview)
# Component license: the license as LICENSE (a Debian package has it in copyright instead).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT license)
# Component debian, in the .deb only.
install(FILES ${_packaging}/copyright ${_gen}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT debian
        EXCLUDE_FROM_ALL)

# The Debian package: CPack's DEB generator over the components rigview and debian, its
# dependencies computed from the binary's shared libraries by dpkg-shlibdeps. The loader glad
# opens libEGL and libGL itself (dlopen), so those are named.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rigview)
set(CPACK_PACKAGE_VERSION ${RIGVIEW_VERSION_FULL})
set(CPACK_PACKAGE_VENDOR "The rigview developers")
set(CPACK_PACKAGE_CONTACT ${RIGVIEW_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "viewer for rigged, animated 3D models")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL rigview debian)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_FILE_NAME "rigview_${RIGVIEW_VERSION_FULL}_amd64.deb")
set(CPACK_DEBIAN_PACKAGE_NAME rigview)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libegl1, libgl1")
# ffmpeg: `render -o out.mp4|out.gif` runs the ffmpeg program (a PNG sequence needs none).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libegl-mesa0, libgl1-mesa-dri, ffmpeg")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# The extended description (CPack puts the summary above it, indents it and marks empty lines).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "rigview opens an FBX, glTF, COLLADA, DirectX, BVH, MD5, SMD, IQM or ASF/AMC
file and plays it with GPU skinning: play, scrub and step its clips, look at
the skeleton, the weights and the bind pose, and get a list of what is wrong
with the rig.

The same binary runs headless for asset pipelines: it renders frames and
thumbnails to PNG through EGL with no display, exports posed meshes, lints
rigs with exit codes for CI, compares two versions of a rig, and writes glTF.
Files are imported in an isolated worker process.")
# cpack packages what the build holds: tools/package.sh builds what ships (not the tests) first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(CPack)
