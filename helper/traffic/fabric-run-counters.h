/*
 * SPDX-License-Identifier: GPL-2.0-only
 * ai-fabric: fabric-wide counters of an installed topology, for the difference over an
 * interval (what TransportComparison reports per row).
 */
#ifndef FABRIC_RUN_COUNTERS_H
#define FABRIC_RUN_COUNTERS_H

#include "ns3/fabric-topology.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief Fabric-wide counters of an installed topology (switches and NICs, every transport),
 *        for the difference over an interval.
 */
struct FabricRunCounters
{
    std::array<uint64_t, 8> pfcPauses{}; //!< PFC pause frames sent per priority (switch + NIC)
    uint64_t trims{0};                   //!< packets the switches trimmed
    uint64_t drops{0};                   //!< packets the switches dropped, any reason
    uint64_t ecnMarks{0};                //!< packets the switches marked CE
    uint64_t retransmissions{0};         //!< data packets sent again (RoCE go-back-N, UET)
    uint64_t timeouts{0};                //!< RoCE local ACK timeouts + UET RTO expirations
    uint64_t nacks{0};                   //!< RoCE NAKs + UET NACKs received by the senders
    uint64_t trimNacks{0};               //!< UET NACK TRIMMED / TRIMMED_LASTHOP received
    uint64_t cnps{0};                    //!< RoCE CNPs sent (DCQCN)
    uint64_t uetBytesPosted{0};          //!< UET: bytes of the operations posted
    uint64_t uetBytesCompleted{0};       //!< UET: bytes of the operations completed ok
    uint64_t uetBytesDelivered{0};       //!< UET: bytes delivered to the targets
    uint64_t uetOpsFailed{0};            //!< UET: operations completed in error

    /// \return PFC pause frames, every priority
    uint64_t GetPfcPauses() const;
    /**
     * \param topo an installed topology
     * \return its counters now: the scale-out switches and NVSwitches (PFC, trims, drops, ECN)
     *         and every GPU's NIC ports and RoceNic / UetNic
     */
    static FabricRunCounters Collect(Ptr<FabricTopologyHelper> topo);
    /**
     * \param before an earlier snapshot of the same fabric
     * \return this - \p before, field by field
     */
    FabricRunCounters Since(const FabricRunCounters& before) const;
};

} // namespace ns3

#endif /* FABRIC_RUN_COUNTERS_H */
