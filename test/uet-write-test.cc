/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The uet-write example end to end: its captures decode under tshark with the project's UET
 * Lua dissector (tools/wireshark/uet.lua) without a malformed packet, show what the transport
 * does on the wire (SYN until the first ACK, ACKs with the SES response, ACK_CC with SACK and
 * RETX retransmissions after losses, NACK ROD_OOO in ROD, the SES opcode of each operation,
 * UDP 4793), and its CSV has one row per PDC event and completion. Skipped when tshark or the
 * example binary is missing.
 */
#include "test-util.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the uet-write binary (empty when this build mode has no examples)
std::string
Example()
{
#ifdef AI_FABRIC_UET_WRITE
    return AI_FABRIC_UET_WRITE;
#else
    return "";
#endif
}

/// \return "-X lua_script:<source>/tools/wireshark/uet.lua"
std::string
Lua()
{
    return std::string("-X lua_script:") + AI_FABRIC_SOURCE_DIR + "/tools/wireshark/uet.lua";
}

/// \return true if tshark runs
bool
HaveTshark()
{
    int status = 0;
    test::RunCommand(test::TsharkPath() + " -v >/dev/null 2>&1", &status);
    return status == 0;
}

/// \return the lines of \p s
std::vector<std::string>
Lines(const std::string& s)
{
    std::vector<std::string> v;
    std::istringstream is(s);
    for (std::string l; std::getline(is, l);)
    {
        v.push_back(l);
    }
    return v;
}

/// Run uet-write with \p args (bounded to 60 s); the test fails on a non-zero exit.
std::string
RunExample(const std::string& args)
{
    int status = 0;
    std::string out = test::RunCommand("timeout 60 " + Example() + " " + args + " 2>&1", &status);
    EXPECT_EQ(status, 0) << "uet-write " << args << ":\n" << out;
    return out;
}

/**
 * tshark fields of the UET frames of \p file matching \p filter, decoded with the Lua
 * dissector, one line per frame, comma-separated.
 */
std::string
Fields(const std::string& file, const std::string& filter, const std::string& names)
{
    std::string args = Lua() + " -E separator=, -T fields";
    if (!filter.empty())
    {
        args += " -Y \"" + filter + "\"";
    }
    std::istringstream is(names);
    for (std::string f; is >> f;)
    {
        args += " -e " + f;
    }
    return test::Tshark(file, args);
}

/// \return the number of frames of \p file matching \p filter
std::size_t
Count(const std::string& file, const std::string& filter)
{
    return Lines(Fields(file, filter, "frame.number")).size();
}

/// Every frame is UET on UDP 4793, none is malformed or carries an error.
void
ExpectCleanUet(const std::string& file)
{
    std::vector<std::string> protocols =
        Lines(test::Tshark(file, Lua() + " -T fields -e frame.protocols"));
    ASSERT_FALSE(protocols.empty()) << file;
    for (const auto& p : protocols)
    {
        EXPECT_NE(p.find("eth:ethertype:ip:udp:uet"), std::string::npos) << file << ": " << p;
    }
    for (const auto& port : Lines(Fields(file, "", "udp.dstport")))
    {
        EXPECT_EQ(port, "4793") << file;
    }
    EXPECT_EQ(test::Tshark(file, Lua() + " -Y _ws.malformed"), "") << file;
    EXPECT_EQ(test::Tshark(file, Lua() + " -Y _ws.expert.severity==error"), "") << file;
}

class UetWriteExampleTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        if (Example().empty())
        {
            GTEST_SKIP() << "the uet-write binary is unknown in this build mode";
        }
        if (!HaveTshark())
        {
            GTEST_SKIP() << "tshark (" << test::TsharkPath()
                         << ") is not installed: the UET captures are not decoded";
        }
    }

    /// Run with --pcap=<prefix>; \return the two capture files (host 0, host 1)
    std::vector<std::string> Capture(const std::string& prefix, const std::string& args)
    {
        std::vector<std::string> files = {prefix + "-0-0.pcap", prefix + "-1-0.pcap"};
        for (const auto& f : files)
        {
            std::remove(f.c_str());
            m_files.push_back(f);
        }
        RunExample(args + " --pcap=" + prefix);
        return files;
    }

    void TearDown() override
    {
        for (const auto& f : m_files)
        {
            std::remove(f.c_str());
        }
    }

    std::vector<std::string> m_files; //!< removed at the end
};

// 64 packets of 4096 B, 3 dropped at the target (the 22nd, 43rd and 64th): the two middle ones
// are SACKed around and retransmitted on inferred loss, the last one after the RTO.
TEST_F(UetWriteExampleTest, WriteWithLossDecodesWithTheLuaDissector)
{
    auto files = Capture("uwt-write", "--bytes=262144 --loss=3");
    const std::string& initiator = files[0];
    const std::string& target = files[1];
    ExpectCleanUet(initiator);
    ExpectCleanUet(target);

    // Requests: RUD_REQ with SES standard WRITE; the first ones carry SYN and psn_offset from
    // Start_PSN, then the target's PDCID once its first ACK came back.
    std::vector<std::string> req = Lines(Fields(initiator,
                                                "uet.pds.type == 2",
                                                "uet.pds.flags.syn uet.pds.flags.retx "
                                                "uet.pds.psn_offset uet.ses.opcode"));
    ASSERT_EQ(req.size(), 64u + 3u) << "64 packets and 3 retransmissions";
    EXPECT_EQ(req[0], "1,0,0,1") << "the first packet opens the PDC";
    EXPECT_EQ(req[1], "1,0,1,1");
    std::size_t syn = Count(initiator, "uet.pds.type == 2 && uet.pds.flags.syn == 1");
    EXPECT_GT(syn, 1u);
    EXPECT_LT(syn, 64u) << "SYN only until the first ACK";
    EXPECT_EQ(Count(initiator, "uet.pds.type == 2 && uet.ses.opcode != 1"), 0u) << "WRITE only";
    EXPECT_EQ(Count(initiator, "uet.pds.type == 2 && uet.pds.flags.retx == 1"), 3u);
    EXPECT_EQ(Count(target, "uet.pds.type == 2"), 64u) << "3 lost, 3 retransmitted";
    EXPECT_EQ(Count(target, "uet.pds.type == 2 && uet.pds.flags.retx == 1"), 3u);

    // ACKs from the target: plain ACKs, ACK_CC with a SACK bitmap while there is a hole, and
    // the SES response (next header 4, RC_OK = 1, the whole message) on the last one.
    EXPECT_GT(Count(target, "uet.pds.type == 7"), 0u);
    EXPECT_GT(Count(target, "uet.pds.type == 8 && uet.pds.ack.sack_bitmap != 0"), 0u);
    EXPECT_EQ(
        Fields(target, "uet.pds.nh == 4", "uet.ses.rsp.return_code uet.ses.rsp.modified_length"),
        "1,262144\n");
    // The initiator closes the idle PDC with a Close control packet (control type 4).
    EXPECT_EQ(Count(initiator, "uet.pds.type == 11 && uet.pds.ctl_type == 4"), 1u);
    EXPECT_EQ(Count(initiator, "uet.pds.type == 10"), 0u) << "no NACK in RUD without trimming";
}

// READ (the request one way, the data back with SES response-with-data headers), SEND and
// TAGGED_SEND carry their SES opcodes; ROD uses ROD_REQ and answers a gap with NACK ROD_OOO.
TEST_F(UetWriteExampleTest, ReadSendTaggedAndRodDecodeWithTheLuaDissector)
{
    auto read = Capture("uwt-read", "--op=read --bytes=65536 --loss=2");
    ExpectCleanUet(read[0]);
    // The READ request (host 0 -> 1); 16 data packets back, 2 of them dropped on arrival
    // (after the capture point of the receiving port) and retransmitted.
    EXPECT_EQ(Fields(read[0],
                     "uet.pds.type == 2 && uet.pds.nh == 3",
                     "uet.ses.opcode uet.ses.request_length"),
              "2,65536\n");
    EXPECT_EQ(Count(read[0], "uet.pds.type == 2 && uet.pds.nh == 5"), 16u - 2u + 2u);
    EXPECT_EQ(Count(read[0], "uet.pds.nh == 5 && uet.pds.flags.retx == 1"), 2u);

    for (const auto& [op, opcode] :
         std::vector<std::pair<std::string, std::string>>{{"send", "5"}, {"tagged", "9"}})
    {
        auto f = Capture("uwt-" + op, "--op=" + op + " --bytes=10000");
        ExpectCleanUet(f[0]);
        std::vector<std::string> codes = Lines(Fields(f[0], "uet.pds.type == 2", "uet.ses.opcode"));
        EXPECT_EQ(codes, std::vector<std::string>(3, opcode)) << op;
    }

    auto rod = Capture("uwt-rod", "--mode=rod --bytes=262144 --loss=2");
    ExpectCleanUet(rod[0]);
    ExpectCleanUet(rod[1]);
    EXPECT_EQ(Count(rod[0], "uet.pds.type == 2"), 0u);
    EXPECT_GE(Count(rod[0], "uet.pds.type == 3"), 64u);
    EXPECT_EQ(Fields(rod[1], "uet.pds.type == 10", "uet.pds.nack.code"), "0x0d\n")
        << "one NACK ROD_OOO for the gap";
}

// The CSV: one row per PDC open and close (with the PDC's packet and ACK counts), per
// retransmission and per completion (with its FCT).
TEST_F(UetWriteExampleTest, CsvHasOneRowPerPdcEventAndCompletion)
{
    const std::string csv = "uwt-events.csv";
    std::remove(csv.c_str());
    m_files.push_back(csv);
    RunExample("--bytes=262144 --loss=3 --csv=" + csv);
    auto rows = test::ReadCsv(csv);
    ASSERT_FALSE(rows.empty());
    std::vector<std::string> events;
    for (auto& r : rows)
    {
        events.push_back(r["node"] + ":" + r["event"] + ":" + r["cause"]);
    }
    EXPECT_EQ(events,
              (std::vector<std::string>{"0:open:",
                                        "1:open:",
                                        "0:retransmit:inferred",
                                        "0:retransmit:inferred",
                                        "0:retransmit:rto",
                                        "0:completion:RC_OK",
                                        "1:close:closed by the initiator",
                                        "0:close:closed"}));
    EXPECT_EQ(rows[0]["role"], "initiator");
    EXPECT_EQ(rows[0]["peer"], "10.0.0.2");
    EXPECT_EQ(rows[1]["role"], "target");
    EXPECT_EQ(rows[1]["peer"], "10.0.0.1");
    EXPECT_EQ(rows[0]["psn"], rows[1]["psn"]) << "both ends know the Start_PSN";
    auto done = rows[5];
    EXPECT_EQ(done["op"], "WRITE");
    EXPECT_EQ(done["bytes"], "262144");
    EXPECT_GT(std::stod(done["fct_us"]), 100.0) << "the tail loss waits for the 100-us RTO";
    EXPECT_EQ(std::stod(done["fct_us"]), std::stod(done["time_us"])) << "posted at 0";
    // The target frees its PDC when the Close arrives, the initiator when its ACK returns.
    // The initiator's PDC sent 64 packets, 3 retransmissions and the Close.
    auto target = rows[6];
    auto initiator = rows[7];
    EXPECT_EQ(initiator["packets"], "68");
    EXPECT_EQ(initiator["bytes"], std::to_string(262144 + 3 * 4096));
    EXPECT_EQ(initiator["acks_tx"], "0");
    EXPECT_EQ(target["packets"], "0");
    EXPECT_EQ(target["acks_rx"], "0");
    EXPECT_EQ(initiator["acks_rx"], target["acks_tx"]) << "no ACK lost";
}

} // namespace
