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
#include "ns3/event-impl.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief One of ns-3's engines (\p Base: DefaultSimulatorImpl or DistributedSimulatorImpl)
 *        whose IsExpired() follows a CausalOrderScheduler: an event at the current time has
 *        run when the scheduler handed it out, not when its uid is below the current event's.
 *        With another scheduler it is \p Base unchanged.
 */
template <typename Base>
class CausalOrderEngine : public Base, public CausalOrderHost
{
  public:
    ~CausalOrderEngine() override
    {
        if (m_causal != nullptr)
        {
            m_causal->DetachHost(); // the scheduler outlives this part of the engine
        }
    }

    /// \copydoc SimulatorImpl::IsExpired(const EventId&)
    bool IsExpired(const EventId& id) const override
    {
        if (m_causal == nullptr || id.GetUid() == EventId::UID::DESTROY)
        {
            return Base::IsExpired(id);
        }
        return id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled() ||
               m_causal->HasRun(id);
    }

    /// \copydoc SimulatorImpl::SetScheduler
    void SetScheduler(ObjectFactory schedulerFactory) override
    {
        m_causal = nullptr; // a new scheduler attaches at its first event
        Base::SetScheduler(schedulerFactory);
    }

    void SetCausalScheduler(CausalOrderScheduler* scheduler) override
    {
        m_causal = scheduler;
    }

    CausalOrderScheduler* GetCausalScheduler() const override
    {
        return m_causal;
    }

  private:
    CausalOrderScheduler* m_causal{nullptr}; //!< the scheduler (owned by Base)
};

/**
 * \ingroup ai-fabric-engine
 * \brief ns-3's DefaultSimulatorImpl run with a CausalOrderScheduler: the sequential reference
 *        of a run split over MPI processes.
 *
 * Only IsExpired() differs (and with it EventId::IsPending, Cancel, Remove and
 * GetDelayLeft), see CausalOrderEngine. Select it with
 * `--SimulatorImplementationType=ns3::CausalSimulatorImpl
 * --SchedulerType=ns3::CausalOrderScheduler` or FabricMpi::SelectEngine().
 *
 * Its distributed twin, ns3::CausalDistributedSimulatorImpl (builds with ns-3's MPI module,
 * NS3_MPI; declared in causal-simulator-impl.cc, since ns-3 does not install
 * DistributedSimulatorImpl's header), is CausalOrderEngine<DistributedSimulatorImpl>: every
 * MPI process runs its simultaneous events in the order of the sequential run, so the results
 * are the same with any process count. FabricMpi::SelectEngine() selects it under mpirun.
 */
class CausalSimulatorImpl : public CausalOrderEngine<DefaultSimulatorImpl>
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
};

} // namespace ns3

#endif /* CAUSAL_SIMULATOR_IMPL_H */
