/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The module's folders depend one way (doc "Design", CMakeLists.txt): every #include of a
 * model/ file, resolved to the folder of the ai-fabric header it names, must be an edge the
 * table below allows; no model/ file includes a helper/ header. A new upward edge (the switch
 * including a transport, a model class needing a helper) fails here, naming the file and the
 * header.
 */
#include "test-util.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace
{

namespace fs = std::filesystem;

/// The source tree: the parent of the data directory the tests are given.
fs::path
SourceDir()
{
    return fs::path(AI_FABRIC_DATA_DIR).parent_path();
}

/// Folder (relative to the source tree, e.g. "model/switch") of every ai-fabric header.
std::map<std::string, std::string>
HeaderFolders(const fs::path& root)
{
    std::map<std::string, std::string> folders;
    for (const char* top : {"model", "helper"})
    {
        for (const auto& e : fs::recursive_directory_iterator(root / top))
        {
            if (e.is_regular_file() && e.path().extension() == ".h")
            {
                folders[e.path().filename().string()] =
                    fs::relative(e.path().parent_path(), root).string();
            }
        }
    }
    return folders;
}

} // namespace

TEST(IncludeGraph, ModelFoldersDependOneWayAndNeverOnHelpers)
{
    // What each model folder may include besides itself (everything may use engine).
    const std::map<std::string, std::set<std::string>> allowed{
        {"model/engine", {}},
        {"model/link", {"model/engine"}},
        {"model/nic", {"model/engine", "model/link"}},
        {"model/switch", {"model/engine", "model/link", "model/switch/lb"}},
        {"model/switch/lb", {"model/engine", "model/switch"}},
        {"model/cc", {"model/engine"}},
        {"model/collective", {"model/engine"}},
        {"model/traffic", {"model/engine", "model/link"}},
        {"model/monitor", {"model/engine", "model/link", "model/nic", "model/switch"}},
        {"model/roce",
         {"model/engine",
          "model/link",
          "model/nic",
          "model/cc",
          "model/switch",
          "model/collective"}},
        {"model/uet",
         {"model/engine",
          "model/link",
          "model/nic",
          "model/cc",
          "model/switch",
          "model/collective",
          "model/uet/ev"}},
        {"model/uet/ev", {"model/engine"}},
    };
    const fs::path root = SourceDir();
    ASSERT_TRUE(fs::is_directory(root / "model")) << root;
    const auto folders = HeaderFolders(root);
    const std::regex include("^\\s*#\\s*include\\s+\"(?:ns3/)?([^\"]+)\"");
    uint32_t files = 0;
    uint32_t edges = 0;
    for (const auto& e : fs::recursive_directory_iterator(root / "model"))
    {
        const std::string ext = e.path().extension().string();
        if (!e.is_regular_file() || (ext != ".h" && ext != ".cc"))
        {
            continue;
        }
        const std::string from = fs::relative(e.path().parent_path(), root).string();
        auto rule = allowed.find(from);
        ASSERT_NE(rule, allowed.end()) << "model folder " << from << " has no rule here: add it";
        ++files;
        std::ifstream in(e.path());
        std::string line;
        std::smatch m;
        while (std::getline(in, line))
        {
            if (!std::regex_search(line, m, include))
            {
                continue;
            }
            auto to = folders.find(fs::path(m[1].str()).filename().string());
            if (to == folders.end() || to->second == from)
            {
                continue; // ns-3's own header, or the same folder
            }
            ++edges;
            EXPECT_EQ(to->second.rfind("helper", 0), std::string::npos)
                << fs::relative(e.path(), root).string() << " includes the helper header " << m[1]
                << " (" << to->second << "): model code never depends on helpers";
            EXPECT_TRUE(rule->second.count(to->second))
                << fs::relative(e.path(), root).string() << " includes " << m[1] << " from "
                << to->second << ", an edge " << from << " -> " << to->second
                << " the folders' direction does not allow";
        }
    }
    EXPECT_GT(files, 100u);
    EXPECT_GT(edges, 100u);
}

// Helpers use transports through FabricTransportPlugin only (issue 38): outside a transport's
// own folders (model/roce and helper/roce, model/uet and helper/uet) no code compares a value
// with a transport's name; the plug-in registry maps names to plug-ins.
TEST(IncludeGraph, NoTransportNameIsComparedOutsideItsFolder)
{
    const fs::path root = SourceDir();
    const std::regex compare(
        R"re((==|!=)\s*"(roce|uet|roce\+uet)"|"(roce|uet|roce\+uet)"\s*(==|!=))re");
    const std::set<std::string> own{"model/roce", "helper/roce", "model/uet", "helper/uet"};
    uint32_t files = 0;
    for (const char* top : {"model", "helper"})
    {
        for (const auto& e : fs::recursive_directory_iterator(root / top))
        {
            const std::string ext = e.path().extension().string();
            if (!e.is_regular_file() || (ext != ".h" && ext != ".cc"))
            {
                continue;
            }
            const std::string folder = fs::relative(e.path().parent_path(), root).string();
            if (own.count(folder.substr(0, folder.find('/', folder.find('/') + 1))) ||
                own.count(folder))
            {
                continue;
            }
            ++files;
            std::ifstream in(e.path());
            std::string line;
            for (uint32_t n = 1; std::getline(in, line); ++n)
            {
                EXPECT_FALSE(std::regex_search(line, compare))
                    << fs::relative(e.path(), root).string() << ":" << n
                    << " compares a transport name: " << line;
            }
        }
    }
    EXPECT_GT(files, 100u); // the tree was found
    // The check finds what it looks for.
    EXPECT_TRUE(std::regex_search(std::string(R"(if (m_transport == "uet"))"), compare));
    EXPECT_TRUE(std::regex_search(std::string(R"(s != "roce+uet")"), compare));
}
