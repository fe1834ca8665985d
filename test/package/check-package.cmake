# CTest "package-config": the installed package works for a project of one's own.
#   cmake -DBUILD_DIR=<ai-fabric build> -DSOURCE_DIR=<this folder> -DWORK_DIR=<scratch dir>
#         -DCXX=<compiler> -P check-package.cmake
# Installs BUILD_DIR into WORK_DIR/prefix, then builds consumer.cc twice against it: with
# find_package(ai-fabric) (this folder's CMakeLists.txt) and with pkg-config; runs both.
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR CXX)
    if(NOT DEFINED ${v})
        message(FATAL_ERROR "check-package.cmake: -D${v}=... is required")
    endif()
endforeach()

function(run what)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "package-config: ${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
    endif()
    set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# 1. CMake: find_package(ai-fabric) from the installed prefix.
run("configuring the consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/cmake
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX})
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake)
run("running the CMake-built consumer" ${WORK_DIR}/cmake/consumer)
if(NOT last_output MATCHES "consumer: 4 ranks, AllReduce completed")
    message(FATAL_ERROR "package-config: unexpected output of the consumer:\n${last_output}")
endif()
message(STATUS "find_package(ai-fabric): ${last_output}")

# 2. pkg-config: the installed ai-fabric.pc (the library directory is lib or lib/<arch>).
file(GLOB_RECURSE pc_files ${prefix}/*/ai-fabric.pc)
if(NOT pc_files)
    message(FATAL_ERROR "package-config: no ai-fabric.pc installed under ${prefix}")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
get_filename_component(lib_dir ${pc_dir} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
run("pkg-config" pkg-config --cflags --libs ai-fabric)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("compiling with pkg-config's flags" ${CXX} -std=c++17 -O1 ${SOURCE_DIR}/consumer.cc
    ${flags} -Wl,-rpath,${lib_dir} -o ${WORK_DIR}/consumer-pkg-config)
run("running the pkg-config-built consumer" ${WORK_DIR}/consumer-pkg-config)
if(NOT last_output MATCHES "consumer: 4 ranks, AllReduce completed")
    message(FATAL_ERROR "package-config: unexpected output of the consumer:\n${last_output}")
endif()
message(STATUS "pkg-config ai-fabric: ${last_output}")
