/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the names the RoCE NIC's congestion control had before the transport-neutral
 * interface (kept so scripts keep working).
 */
#ifndef ROCE_CONGESTION_OPS_H
#define ROCE_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief The per-QP congestion control of a RoceNic: the transport-neutral
 *        FabricCongestionOps (this name is kept for existing scripts).
 *
 * Migrating an algorithm written for the earlier RoCE-only interface: Fork() is unchanged;
 * Init(DataRate) becomes Init(Ptr<FabricCcState>) (call the base first, then read
 * GetLineRate()); OnAck(bytes, rtt) becomes OnAck(const FabricCcAckSample&) (sample.ackedBytes,
 * sample.rtt); OnCnp(), OnNak() and OnTimeout() become OnEvent(FabricCcEvent::CNP / NACK /
 * TIMEOUT); the "Rate" and "Window" trace sources are on the QP's FabricCcState
 * (RoceQueuePair::GetCcState()).
 */
using RoceCongestionOps = FabricCongestionOps;

/**
 * \ingroup ai-fabric-cc
 * \brief No congestion control under its RoCE name (ns3::RoceNoneCongestionOps, RoceNic's
 *        default): the same as FabricNoneCongestionOps.
 */
class RoceNoneCongestionOps : public FabricNoneCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    Ptr<FabricCongestionOps> Fork() const override;
};

} // namespace ns3

#endif /* ROCE_CONGESTION_OPS_H */
