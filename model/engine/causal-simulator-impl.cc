/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "causal-simulator-impl.h"

#ifdef NS3_MPI
// Not among the MPI module's installed headers: the in-tree build adds src/mpi/model.
#include "distributed-simulator-impl.h"
#endif

namespace ns3
{

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

#ifdef NS3_MPI
/**
 * \ingroup ai-fabric-engine
 * \brief ns-3's DistributedSimulatorImpl (granted time window over MPI) run with a
 *        CausalOrderScheduler; only IsExpired() differs (CausalOrderEngine).
 */
class CausalDistributedSimulatorImpl : public CausalOrderEngine<DistributedSimulatorImpl>
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::CausalDistributedSimulatorImpl")
                                .SetParent<DistributedSimulatorImpl>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<CausalDistributedSimulatorImpl>();
        return tid;
    }

    bool BoundLookahead(Time lookahead) override
    {
        BoundLookAhead(lookahead);
        return true;
    }
};

NS_OBJECT_ENSURE_REGISTERED(CausalDistributedSimulatorImpl);
#endif

} // namespace ns3
