/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Attribute range checks: a value out of an attribute's range is refused where it is set
 * (Config::SetDefault, SetAttribute, ObjectFactory::Set), naming the attribute's full name, the
 * value and the valid range; values in range are accepted unchanged.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace test
{
namespace
{

using FabricAttributeTest = SimTest;
using FabricAttributeDeathTest = SimTest;

struct OutOfRange
{
    std::string attribute; //!< full name
    std::string value;     //!< as typed on a command line
    std::string message;   //!< regex the abort must match
};

class FabricAttributeOutOfRangeDeathTest : public ::testing::TestWithParam<OutOfRange>
{
};

// The issue's list, set as strings the way CommandLine and Config::SetDefault("...",
// StringValue(...)) pass them.
TEST_P(FabricAttributeOutOfRangeDeathTest, SetDefaultNamesAttributeValueAndRange)
{
    const OutOfRange& c = GetParam();
    EXPECT_DEATH(Config::SetDefault(c.attribute, StringValue(c.value)), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Issue,
    FabricAttributeOutOfRangeDeathTest,
    ::testing::Values(
        OutOfRange{"ns3::SharedBufferMmu::Alpha",
                   "0",
                   "ns3::SharedBufferMmu::Alpha=0 is out of range: valid range > 0"},
        OutOfRange{"ns3::SharedBufferMmu::EgressAlpha",
                   "-1",
                   "ns3::SharedBufferMmu::EgressAlpha=-1 is out of range: valid range > 0"},
        OutOfRange{"ns3::DcqcnCongestionOps::G",
                   "2",
                   "ns3::DcqcnCongestionOps::G=2 is out of range: valid range \\(0, 1\\]"},
        OutOfRange{"ns3::DcqcnCongestionOps::G",
                   "0",
                   "ns3::DcqcnCongestionOps::G=0 is out of range: valid range \\(0, 1\\]"},
        OutOfRange{"ns3::DcqcnCongestionOps::Gd",
                   "0",
                   "ns3::DcqcnCongestionOps::Gd=0 is out of range: valid range >= 1"},
        OutOfRange{"ns3::DcqcnCongestionOps::MinDecreaseFactor",
                   "1.5",
                   "ns3::DcqcnCongestionOps::MinDecreaseFactor=1.5 is out of range: valid "
                   "range \\[0, 1\\]"},
        OutOfRange{"ns3::DcqcnCongestionOps::InitialAlpha",
                   "5",
                   "ns3::DcqcnCongestionOps::InitialAlpha=5 is out of range: valid range "
                   "\\[0, 1\\]"},
        // (DCQCN's ByteCounter accepts 0 = off since issue 23; a >= 1 integer of the classic
        // algorithms instead.)
        OutOfRange{"ns3::TimelyCongestionOps::HaiThreshold",
                   "0",
                   "ns3::TimelyCongestionOps::HaiThreshold=0 is out of range: valid range >= 1"},
        OutOfRange{"ns3::DctcpCongestionOps::G",
                   "-0.0625",
                   "ns3::DctcpCongestionOps::G=-0.0625 is out of range: valid range \\(0, 1\\]"},
        OutOfRange{"ns3::SwiftCongestionOps::MaxMdf",
                   "2",
                   "ns3::SwiftCongestionOps::MaxMdf=2 is out of range: valid range \\(0, 1\\]"},
        OutOfRange{"ns3::DcqcnCongestionOps::RateIncreaseTimer",
                   "0s",
                   "ns3::DcqcnCongestionOps::RateIncreaseTimer=0s is out of range: valid "
                   "range >= 1ns"},
        OutOfRange{"ns3::DcqcnCongestionOps::AlphaUpdatePeriod",
                   "-3us",
                   "ns3::DcqcnCongestionOps::AlphaUpdatePeriod=-3us is out of range: valid "
                   "range >= 1ns"},
        OutOfRange{"ns3::DcqcnCongestionOps::RateAi",
                   "0bps",
                   "ns3::DcqcnCongestionOps::RateAi=0bps is out of range: valid range > 0bps"},
        OutOfRange{"ns3::DcqcnCongestionOps::RateHai",
                   "0bps",
                   "ns3::DcqcnCongestionOps::RateHai=0bps is out of range: valid range > 0bps"},
        OutOfRange{"ns3::DcqcnCongestionOps::MinRate",
                   "0bps",
                   "ns3::DcqcnCongestionOps::MinRate=0bps is out of range: valid range > 0bps"},
        OutOfRange{"ns3::DcqcnNotificationPoint::CnpInterval",
                   "-1ns",
                   "ns3::DcqcnNotificationPoint::CnpInterval=-1ns is out of range: valid "
                   "range >= 0s"},
        OutOfRange{"ns3::PfcNetDevice::PauseQuanta",
                   "0",
                   "ns3::PfcNetDevice::PauseQuanta=0 is out of range: valid range 1..65535"},
        // Beyond the member's own type (uint16_t): the same message, not ns-3's generic one.
        OutOfRange{"ns3::PfcNetDevice::PauseQuanta",
                   "70000",
                   "ns3::PfcNetDevice::PauseQuanta=70000 is out of range: valid range "
                   "1..65535"},
        OutOfRange{"ns3::PfcNetDevice::DefaultPriority",
                   "8",
                   "ns3::PfcNetDevice::DefaultPriority=8 is out of range: valid range 0..7"},
        OutOfRange{"ns3::RoceNic::FirstQpn",
                   "1",
                   "ns3::RoceNic::FirstQpn=1 is out of range: valid range 2..16773120"},
        OutOfRange{"ns3::CollectiveCommunicator::Channels",
                   "65536",
                   "ns3::CollectiveCommunicator::Channels=65536 is out of range: valid range "
                   "0..65535"},
        OutOfRange{"ns3::DelayClassScheduler::MaxClasses",
                   "5000",
                   "ns3::DelayClassScheduler::MaxClasses=5000 is out of range: valid range "
                   "1..4096"}));

// A typed value (not a string) is checked the same way, by Config::SetDefault, SetAttribute
// and ObjectFactory::Set alike.
TEST_F(FabricAttributeDeathTest, EveryWayOfSettingNamesTheRange)
{
    EXPECT_DEATH(Config::SetDefault("ns3::DcqcnCongestionOps::G", DoubleValue(2)),
                 "ns3::DcqcnCongestionOps::G=2 is out of range: valid range \\(0, 1\\]");
    Ptr<DcqcnCongestionOps> dcqcn = CreateObject<DcqcnCongestionOps>();
    EXPECT_DEATH(dcqcn->SetAttribute("Gd", DoubleValue(0.5)),
                 "ns3::DcqcnCongestionOps::Gd=0.5 is out of range: valid range >= 1");
    EXPECT_DEATH(dcqcn->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(-300))),
                 "ns3::DcqcnCongestionOps::RateIncreaseTimer=-300us is out of range");
    ObjectFactory f("ns3::SharedBufferMmu");
    EXPECT_DEATH(f.Set("Alpha", DoubleValue(0)),
                 "ns3::SharedBufferMmu::Alpha=0 is out of range: valid range > 0");
    // The FailSafe variants abort too: an out-of-range value is a configuration error.
    EXPECT_DEATH(dcqcn->SetAttributeFailSafe("G", DoubleValue(-1)),
                 "ns3::DcqcnCongestionOps::G=-1 is out of range");
}

// XON comes at threshold - XonOffset: an offset above the threshold (which used to be accepted,
// leaving a paused priority paused until its shared use was 0) is refused when the MMU is
// configured, naming both values and the range.
TEST_F(FabricAttributeDeathTest, XonOffsetAboveTheXoffThresholdIsRefused)
{
    const std::vector<DataRate> rates{DataRate("100Gbps"), DataRate("100Gbps")};
    const std::vector<Time> delays{MicroSeconds(1), MicroSeconds(1)};
    auto mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("ThresholdMode", EnumValue(SharedBufferMmu::STATIC));
    mmu->SetAttribute("XoffStaticBytes", UintegerValue(4096));
    mmu->SetAttribute("XonOffset", UintegerValue(8192));
    EXPECT_DEATH(mmu->Configure(rates, delays, 9000),
                 "SharedBufferMmu XonOffset 8192 B is larger than the XOFF threshold "
                 "XoffStaticBytes 4096 B \\(ThresholdMode Static\\); valid range is 0..4096 B");
    mmu->SetAttribute("XonOffset", UintegerValue(4096)); // equal: XON when drained, allowed
    mmu->Configure(rates, delays, 9000);
    EXPECT_EQ(mmu->GetXoffThreshold(0, 3), 4096u);

    auto dynamic = CreateObject<SharedBufferMmu>();
    dynamic->SetAttribute("BufferSize", UintegerValue(1 << 20));
    dynamic->SetAttribute("XonOffset", UintegerValue(1 << 20));
    EXPECT_DEATH(dynamic->Configure(rates, delays, 9000),
                 "SharedBufferMmu XonOffset 1048576 B is larger than the largest XOFF threshold "
                 "\\(ThresholdMode Dynamic: Alpha 0.125 x shared pool [0-9]+ B = [0-9]+ B\\); "
                 "valid range is 0..[0-9]+ B");
    // Without lossless priorities there is no XON: any offset is accepted.
    auto lossy = CreateObject<SharedBufferMmu>();
    lossy->SetAttribute("LosslessPriorities", UintegerValue(0));
    lossy->SetAttribute("XonOffset", UintegerValue(1ull << 40));
    lossy->Configure(rates, delays, 9000);
}

TEST_F(FabricAttributeTest, ValuesInRangeAreAcceptedUnchanged)
{
    Config::SetDefault("ns3::DcqcnCongestionOps::G", StringValue("1"));
    Config::SetDefault("ns3::DcqcnCongestionOps::RateAi", StringValue("1bps"));
    Config::SetDefault("ns3::DcqcnCongestionOps::RateIncreaseTimer", StringValue("1ns"));
    Config::SetDefault("ns3::PfcNetDevice::PauseQuanta", UintegerValue(65535));
    Ptr<DcqcnCongestionOps> dcqcn = CreateObject<DcqcnCongestionOps>();
    DoubleValue g;
    dcqcn->GetAttribute("G", g);
    EXPECT_EQ(g.Get(), 1.0);
    DataRateValue ai;
    dcqcn->GetAttribute("RateAi", ai);
    EXPECT_EQ(ai.Get().GetBitRate(), 1u);
    TimeValue timer;
    dcqcn->GetAttribute("RateIncreaseTimer", timer);
    EXPECT_EQ(timer.Get(), NanoSeconds(1));
    dcqcn->SetAttribute("MinDecreaseFactor", DoubleValue(0));
    dcqcn->SetAttribute("InitialAlpha", DoubleValue(1));
    DoubleValue mdf;
    dcqcn->GetAttribute("MinDecreaseFactor", mdf);
    EXPECT_EQ(mdf.Get(), 0.0);
    Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
    UintegerValue quanta;
    dev->GetAttribute("PauseQuanta", quanta);
    EXPECT_EQ(quanta.Get(), 65535u);
}

// The checker keeps ns-3's contract for values of another type: Check() is false (no abort), so
// CreateValidValue converts a string and checks the converted value.
TEST_F(FabricAttributeTest, OtherValueTypesAreConvertedNotRefused)
{
    Ptr<const AttributeChecker> c = MakeFabricPositiveDoubleChecker("ns3::Test::X", 1.0);
    EXPECT_FALSE(c->Check(StringValue("0.5")));
    EXPECT_TRUE(c->Check(DoubleValue(0.5)));
    Ptr<AttributeValue> v = c->CreateValidValue(StringValue("0.25"));
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(DynamicCast<DoubleValue>(v)->Get(), 0.25);
    EXPECT_EQ(c->GetValueTypeName(), "ns3::DoubleValue");
    EXPECT_EQ(c->GetUnderlyingTypeInformation(), "valid range (0, 1]");
}

TEST_F(FabricAttributeTest, RangeTexts)
{
    auto range = [](Ptr<const AttributeChecker> c) {
        return DynamicCast<const FabricAttributeChecker>(c)->GetRange();
    };
    EXPECT_EQ(range(MakeFabricDoubleChecker("ns3::T::A", 0, 1)), "[0, 1]");
    EXPECT_EQ(range(MakeFabricDoubleChecker("ns3::T::A", 1)), ">= 1");
    EXPECT_EQ(range(MakeFabricPositiveDoubleChecker("ns3::T::A")), "> 0");
    EXPECT_EQ(range(MakeFabricUintegerChecker<uint16_t>("ns3::T::A", 1)), "1..65535");
    EXPECT_EQ(range(MakeFabricUintegerChecker<uint32_t>("ns3::T::A", 1)), ">= 1");
    EXPECT_EQ(range(MakeFabricUintegerChecker<uint64_t>("ns3::T::A", 1, 1024)), "1..1024");
    EXPECT_EQ(range(MakeFabricTimeChecker("ns3::T::A", Time(0))), ">= 0s");
    EXPECT_EQ(range(MakeFabricTimeChecker("ns3::T::A", NanoSeconds(1), MicroSeconds(300))),
              "[1ns, 300us]");
    EXPECT_EQ(range(MakeFabricDataRateChecker("ns3::T::A")), "> 0bps");
    EXPECT_EQ(range(MakeFabricDataRateChecker("ns3::T::A", DataRate("1Mbps"))), ">= 1000000bps");
    EXPECT_EQ(FabricFormatTime(Seconds(2)), "2s");
    EXPECT_EQ(FabricFormatTime(MicroSeconds(1500)), "1500us");
    EXPECT_EQ(FabricFormatTime(PicoSeconds(-20)), "-20ps");
}

// Every FabricAttributeChecker is registered under the name it reports (the name is written
// by hand next to the attribute; a typo or a copy-pasted checker would misname the attribute).
TEST_F(FabricAttributeTest, EveryCheckerNamesItsOwnAttribute)
{
    uint32_t checkers = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        for (std::size_t j = 0; j < tid.GetAttributeN(); ++j)
        {
            auto c = DynamicCast<const FabricAttributeChecker>(tid.GetAttribute(j).checker);
            if (c)
            {
                ++checkers;
                EXPECT_EQ(c->GetAttributeName(), tid.GetAttributeFullName(j));
                // Its registered default is in range (Check aborts otherwise).
                EXPECT_TRUE(c->Check(*tid.GetAttribute(j).originalInitialValue))
                    << tid.GetAttributeFullName(j);
            }
        }
    }
    EXPECT_GE(checkers, 40u);
}

} // namespace
} // namespace test
} // namespace ns3

namespace
{

using namespace ns3;

// Issue 39: the command-line layer's value parsers are strict: no sign, no wrap-around, no
// trailing text, units spelled out.
TEST(FabricCommandLineParse, WholeNumbersBytesAndTimes)
{
    uint64_t v = 0;
    std::string why;
    EXPECT_TRUE(FabricCommandLine::ParseUnsigned("18446744073709551615", v, why));
    EXPECT_EQ(v, UINT64_MAX);
    EXPECT_FALSE(FabricCommandLine::ParseUnsigned("18446744073709551616", v, why));
    EXPECT_EQ(why, "too large");
    EXPECT_FALSE(FabricCommandLine::ParseUnsigned("-4", v, why));
    EXPECT_EQ(why, "negative");
    for (const char* bad : {"", "lots", "4.5", "4 ", " 4", "+4", "0x10", "1e3"})
    {
        EXPECT_FALSE(FabricCommandLine::ParseUnsigned(bad, v, why)) << bad;
    }
    EXPECT_TRUE(FabricCommandLine::ParseBytes("64MiB", v, why));
    EXPECT_EQ(v, 64ull << 20);
    EXPECT_TRUE(FabricCommandLine::ParseBytes("1G", v, why));
    EXPECT_EQ(v, 1ull << 30);
    EXPECT_TRUE(FabricCommandLine::ParseBytes("4096", v, why));
    EXPECT_EQ(v, 4096u);
    EXPECT_TRUE(FabricCommandLine::ParseBytes("2KB", v, why));
    EXPECT_EQ(v, 2048u);
    EXPECT_FALSE(FabricCommandLine::ParseBytes("4XB", v, why));
    EXPECT_EQ(why, "unknown unit 'XB'");
    EXPECT_FALSE(FabricCommandLine::ParseBytes("-4", v, why));
    EXPECT_EQ(why, "negative");
    EXPECT_FALSE(FabricCommandLine::ParseBytes("17179869184GiB", v, why));
    EXPECT_EQ(why, "too large");
    Time t;
    EXPECT_TRUE(FabricCommandLine::ParseTime("5us", t));
    EXPECT_EQ(t, MicroSeconds(5));
    EXPECT_TRUE(FabricCommandLine::ParseTime("-1.5ms", t));
    EXPECT_EQ(t, MicroSeconds(-1500));
    EXPECT_TRUE(FabricCommandLine::ParseTime("2", t));
    EXPECT_EQ(t, Seconds(2));
    for (const char* bad : {"", "5 us", "5usec", "fast", "1..2us", "us"})
    {
        EXPECT_FALSE(FabricCommandLine::ParseTime(bad, t)) << bad;
    }
}

// Progress lines show wall-clock durations people read.
TEST(FabricProgressReporterFormat, Durations)
{
    EXPECT_EQ(FabricProgressReporter::FormatDuration(0), "0 s");
    EXPECT_EQ(FabricProgressReporter::FormatDuration(59.4), "59 s");
    EXPECT_EQ(FabricProgressReporter::FormatDuration(725), "12 min 5 s");
    EXPECT_EQ(FabricProgressReporter::FormatDuration(12000), "3 h 20 min");
}

// Input errors abort as NS_ABORT_MSG did (library users, death tests) unless a program chose
// to exit on them; then one line and status 2.
TEST(FabricInputErrorDeathTest, AbortsByDefaultExitsWithTwoWhenAsked)
{
    EXPECT_DEATH(FABRIC_INPUT_ERROR("--x=1 is invalid"), "msg=\"--x=1 is invalid\"");
    EXPECT_EXIT(
        {
            FabricInputError::SetExitOnError("prog");
            FABRIC_INPUT_ERROR("--x=1 is\ninvalid");
        },
        ::testing::ExitedWithCode(2),
        "prog: error: --x=1 is invalid");
}

} // namespace
