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
    FabricTransportCounters transports;  //!< every GPU's transports, summed

    /// \return PFC pause frames, every priority
    uint64_t GetPfcPauses() const;
    /**
     * \param topo an installed topology
     * \return its counters now: the scale-out switches and NVSwitches (PFC, trims, drops, ECN)
     *         and every GPU's NIC ports and transports (FabricTransportPlugin::AddCounters)
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
