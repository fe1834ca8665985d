/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: ns-3's engines, sequential and distributed, with IsExpired following the
 * CausalOrderScheduler's order of simultaneous events.
 */
#ifndef CAUSAL_SIMULATOR_IMPL_H
#define CAUSAL_SIMULATOR_IMPL_H

#include "causal-order-scheduler.h"

#include "ns3/default-simulator-impl.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief ns-3's DefaultSimulatorImpl run with a CausalOrderScheduler: the sequential reference
 *        of a run split over MPI processes (CausalDistributedSimulatorImpl).
 *
 * Only IsExpired() differs (and with it EventId::IsPending, Cancel, Remove and
 * GetDelayLeft): an event at the current time has run when the scheduler removed it to run,
 * not when its uid is below the current event's. Select it with
 * `--SimulatorImplementationType=ns3::CausalSimulatorImpl
 * --SchedulerType=ns3::CausalOrderScheduler` or FabricMpi::SelectEngine(). With another
 * scheduler it behaves exactly as DefaultSimulatorImpl.
 *
 * Its distributed twin, ns3::CausalDistributedSimulatorImpl (builds with ns-3's MPI module,
 * NS3_MPI; declared in causal-simulator-impl.cc, since ns-3 does not install
 * DistributedSimulatorImpl's header), is ns-3's DistributedSimulatorImpl with the same
 * IsExpired(): every MPI process runs its simultaneous events in the order of the sequential
 * run, so the results are the same with any process count. FabricMpi::SelectEngine() selects
 * it under mpirun.
 */
class CausalSimulatorImpl : public DefaultSimulatorImpl, public CausalOrderHost
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~CausalSimulatorImpl() override;

    /// \copydoc SimulatorImpl::IsExpired(const EventId&)
    bool IsExpired(const EventId& id) const override;
    /// \copydoc SimulatorImpl::SetScheduler
    void SetScheduler(ObjectFactory schedulerFactory) override;
    void SetCausalScheduler(CausalOrderScheduler* scheduler) override;
    CausalOrderScheduler* GetCausalScheduler() const override;

  private:
    CausalOrderScheduler* m_causal{nullptr}; //!< the scheduler (owned by the base)
};

} // namespace ns3

#endif /* CAUSAL_SIMULATOR_IMPL_H */
