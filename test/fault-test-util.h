/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared pieces of the fault, monitor and lab tests: the small Clos they run on, the parse
 * error of a fault spec, the peer of a port, and the frame bookkeeping of a whole fabric
 * (every data frame a NIC sent was received by a NIC, dropped by a switch, by reason, or
 * dropped by a port: link down, rx error, ..., once the run is over and nothing is in flight).
 */
#ifndef AI_FABRIC_TEST_FAULT_TEST_UTIL_H
#define AI_FABRIC_TEST_FAULT_TEST_UTIL_H

#include "ns3/ai-fabric-module.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace test
{

/**
 * \brief The small Clos of the fault tests, not yet installed: 2 ToRs (leaf0: gpu0, gpu1;
 *        leaf1: gpu2, gpu3) x 2 spines, one cable each, no NVLink, RoCE local ACK timeout
 *        4.096 us x 2^4 = 65.5 us (losses recover within a test's few hundred us).
 * \return the topology helper (call Install(), after any attribute of the caller's own)
 */
inline Ptr<ClosTopologyHelper>
MakeSmallClos()
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(2));
    t->SetAttribute("GpusPerServer", UintegerValue(2));
    t->SetAttribute("ServersPerRack", UintegerValue(1));
    t->SetAttribute("Spines", UintegerValue(2));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->GetNicHelper().SetNicAttribute("LocalAckTimeout", UintegerValue(4));
    return t;
}

/// \return the error FaultHelper::TryParse() gives for \p text ("" if it parses)
inline std::string
FaultParseError(const std::string& text)
{
    std::vector<FaultSpec> specs;
    std::string error;
    const bool ok = FaultHelper::TryParse(text, specs, error);
    EXPECT_EQ(ok, error.empty()) << text;
    return error;
}

/// \return the device at the other end of \p dev's cable
inline Ptr<PfcNetDevice>
PeerOf(Ptr<PfcNetDevice> dev)
{
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    return ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
}

/// Frame bookkeeping of a whole fabric.
struct FrameBook
{
    uint64_t nicTx{0};       //!< data frames the NICs transmitted
    uint64_t nicRx{0};       //!< data frames the NICs received
    uint64_t switchDrops{0}; //!< dropped by switches, every reason
    uint64_t routeDown{0};   //!< of which "route down"
    uint64_t linkDown{0};    //!< lost on cut cables (ports' "link down" drops)
    uint64_t rxDrops{0};     //!< received by a port and not delivered (rx error, wrong MAC...)
    uint64_t txRefused{0};   //!< refused before transmission (queue full, oversize)
};

/// Add a port's drops to \p b; with \p nic also its data frames sent and received.
inline void
AddPortToBook(FrameBook& b, Ptr<PfcNetDevice> dev, bool nic)
{
    const PfcPortCounters& c = dev->GetCounters();
    for (uint32_t p = 0; nic && p < 8; ++p)
    {
        b.nicTx += c.txFrames[p];
        b.nicRx += c.rxFrames[p];
    }
    b.linkDown += c.drops[size_t(PfcDropReason::LINK_DOWN)];
    b.txRefused +=
        c.drops[size_t(PfcDropReason::QUEUE_FULL)] + c.drops[size_t(PfcDropReason::OVERSIZE)];
    for (PfcDropReason r : {PfcDropReason::RX_ERROR,
                            PfcDropReason::WRONG_DESTINATION,
                            PfcDropReason::UNKNOWN_MAC_CONTROL,
                            PfcDropReason::MALFORMED,
                            PfcDropReason::NO_RECEIVER})
    {
        b.rxDrops += c.drops[size_t(r)];
    }
}

/// \return the frame bookkeeping of \p t now
inline FrameBook
BookFrames(const FabricTopologyHelper& t)
{
    FrameBook b;
    for (uint32_t r = 0; r < t.GetNRanks(); ++r)
    {
        Ptr<FabricNic> nic = t.GetNicCore(r);
        for (uint32_t p = 0; p < nic->GetNPorts(); ++p)
        {
            AddPortToBook(b, nic->GetPort(p), true);
        }
    }
    for (Ptr<FabricSwitch> sw : t.GetScaleOutSwitches())
    {
        b.switchDrops += sw->GetCounters().drops.GetTotal();
        b.routeDown += sw->GetCounters().drops[size_t(SwitchDropReason::ROUTE_DOWN)];
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            AddPortToBook(b, sw->GetPort(p), false);
        }
    }
    return b;
}

/// Sent = received + dropped (every reason), nothing in flight once the run is over.
inline void
ExpectFramesConserved(const FabricTopologyHelper& t)
{
    const FrameBook b = BookFrames(t);
    EXPECT_EQ(b.txRefused, 0u);
    EXPECT_EQ(b.nicTx, b.nicRx + b.switchDrops + b.linkDown + b.rxDrops)
        << "tx " << b.nicTx << " rx " << b.nicRx << " switch drops " << b.switchDrops
        << " link down " << b.linkDown << " rx drops " << b.rxDrops;
}

} // namespace test
} // namespace ns3

#endif /* AI_FABRIC_TEST_FAULT_TEST_UTIL_H */
