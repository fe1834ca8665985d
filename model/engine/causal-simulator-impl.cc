/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "causal-simulator-impl.h"

#include "ns3/event-impl.h"

#ifdef NS3_MPI
// Not among the MPI module's installed headers: the in-tree build adds src/mpi/model.
#include "distributed-simulator-impl.h"
#endif

namespace ns3
{

namespace
{
/**
 * \brief IsExpired under a CausalOrderScheduler.
 * \param causal the scheduler
 * \param id a non-destroy event
 * \return true if it ran, was cancelled or is empty
 */
bool
CausalExpired(const CausalOrderScheduler& causal, const EventId& id)
{
    return id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled() || causal.HasRun(id);
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(CausalSimulatorImpl);

TypeId
CausalSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CausalSimulatorImpl")
                            .SetParent<DefaultSimulatorImpl>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CausalSimulatorImpl>();
    return tid;
}

CausalSimulatorImpl::~CausalSimulatorImpl()
{
    if (m_causal != nullptr)
    {
        m_causal->DetachHost(); // the scheduler outlives this part of the engine
    }
}

void
CausalSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    m_causal = nullptr; // a new scheduler attaches at its first event
    DefaultSimulatorImpl::SetScheduler(schedulerFactory);
}

bool
CausalSimulatorImpl::IsExpired(const EventId& id) const
{
    if (m_causal == nullptr || id.GetUid() == EventId::UID::DESTROY)
    {
        return DefaultSimulatorImpl::IsExpired(id);
    }
    return CausalExpired(*m_causal, id);
}

void
CausalSimulatorImpl::SetCausalScheduler(CausalOrderScheduler* scheduler)
{
    m_causal = scheduler;
}

CausalOrderScheduler*
CausalSimulatorImpl::GetCausalScheduler() const
{
    return m_causal;
}

#ifdef NS3_MPI
/**
 * \ingroup ai-fabric-engine
 * \brief ns-3's DistributedSimulatorImpl (granted time window over MPI) run with a
 *        CausalOrderScheduler; only IsExpired() differs, as in CausalSimulatorImpl.
 */
class CausalDistributedSimulatorImpl : public DistributedSimulatorImpl, public CausalOrderHost
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~CausalDistributedSimulatorImpl() override;

    /// \copydoc SimulatorImpl::IsExpired(const EventId&)
    bool IsExpired(const EventId& id) const override;
    /// \copydoc SimulatorImpl::SetScheduler
    void SetScheduler(ObjectFactory schedulerFactory) override;
    void SetCausalScheduler(CausalOrderScheduler* scheduler) override;
    CausalOrderScheduler* GetCausalScheduler() const override;

  private:
    CausalOrderScheduler* m_causal{nullptr}; //!< the scheduler (owned by the base)
};

NS_OBJECT_ENSURE_REGISTERED(CausalDistributedSimulatorImpl);

TypeId
CausalDistributedSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CausalDistributedSimulatorImpl")
                            .SetParent<DistributedSimulatorImpl>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CausalDistributedSimulatorImpl>();
    return tid;
}

CausalDistributedSimulatorImpl::~CausalDistributedSimulatorImpl()
{
    if (m_causal != nullptr)
    {
        m_causal->DetachHost(); // the scheduler outlives this part of the engine
    }
}

void
CausalDistributedSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    m_causal = nullptr; // a new scheduler attaches at its first event
    DistributedSimulatorImpl::SetScheduler(schedulerFactory);
}

bool
CausalDistributedSimulatorImpl::IsExpired(const EventId& id) const
{
    if (m_causal == nullptr || id.GetUid() == EventId::UID::DESTROY)
    {
        return DistributedSimulatorImpl::IsExpired(id);
    }
    return CausalExpired(*m_causal, id);
}

void
CausalDistributedSimulatorImpl::SetCausalScheduler(CausalOrderScheduler* scheduler)
{
    m_causal = scheduler;
}

CausalOrderScheduler*
CausalDistributedSimulatorImpl::GetCausalScheduler() const
{
    return m_causal;
}
#endif

} // namespace ns3
