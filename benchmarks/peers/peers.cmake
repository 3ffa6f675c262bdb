# The peer JSON libraries of the benchmarks, shared by benchmarks/CMakeLists.txt and the fairness
# test (tests/bench_fairness). Sets COLLECTCALL_PEERS_FOUND and defines
# collectcall_add_peers(<name>): a static library with the corpus, the three peers and the
# std::regex validators.
find_package(nlohmann_json 3 QUIET CONFIG)
find_package(RapidJSON QUIET CONFIG)
find_package(boost_json 1.81 QUIET CONFIG)

set(COLLECTCALL_PEERS_DIR ${CMAKE_CURRENT_LIST_DIR}/..)
if(TARGET nlohmann_json::nlohmann_json AND RapidJSON_FOUND AND TARGET Boost::json)
  set(COLLECTCALL_PEERS_FOUND ON)
else()
  set(COLLECTCALL_PEERS_FOUND OFF)
endif()

function(collectcall_add_peers name)
  add_library(${name} STATIC
    ${COLLECTCALL_PEERS_DIR}/corpus/corpus.cpp
    ${COLLECTCALL_PEERS_DIR}/peers/nlohmann_peer.cpp
    ${COLLECTCALL_PEERS_DIR}/peers/boost_json_peer.cpp
    ${COLLECTCALL_PEERS_DIR}/peers/rapidjson_peer.cpp
    ${COLLECTCALL_PEERS_DIR}/peers/regex_validators.cpp)
  target_include_directories(${name} PUBLIC ${COLLECTCALL_PEERS_DIR})
  # The peers' own headers are not ours to keep warning-free.
  target_include_directories(${name} SYSTEM PRIVATE ${RAPIDJSON_INCLUDE_DIRS})
  target_link_libraries(${name}
    PUBLIC collectcall::collectcall
    PRIVATE collectcall_build_flags nlohmann_json::nlohmann_json Boost::json)
endfunction()
