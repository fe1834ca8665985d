/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-qp-connector.h"

#include "ns3/fabric-input-error.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

RoceQpConnector::RoceQpConnector()
    : m_psnRng(CreateObject<UniformRandomVariable>()),
      m_randomPsn(true)
{
}

void
RoceQpConnector::SetRandomStartPsn(bool random)
{
    m_randomPsn = random;
}

std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>>
RoceQpConnector::Connect(Ptr<RoceNic> a,
                         Ptr<RoceNic> b,
                         uint32_t nQps,
                         uint32_t portA,
                         uint32_t portB,
                         const std::string& who)
{
    FABRIC_INPUT_ERROR_IF(!a || !b, who << ": a NIC is null (unknown NIC)");
    FABRIC_INPUT_ERROR_IF(a->GetNPorts() == 0 || b->GetNPorts() == 0,
                          who << ": a NIC has no ports (install it with "
                                 "RoceNicHelper::Install first)");
    FABRIC_INPUT_ERROR_IF(nQps == 0, who << ": nQps must be >= 1");
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> pairs;
    // Across MPI processes a NIC of another process gets a QP number, not a QP: every NIC
    // numbers its QPs as in the sequential run, and each process holds its own NICs' QPs.
    const bool localA = IsLocal(a);
    const bool localB = IsLocal(b);
    for (uint32_t i = 0; i < nQps; ++i)
    {
        Ptr<RoceQueuePair> qa = localA ? a->CreateQp(portA) : nullptr;
        Ptr<RoceQueuePair> qb = localB ? b->CreateQp(portB) : nullptr;
        const uint32_t qpnA = qa ? qa->GetQpn() : a->ReserveQp();
        const uint32_t qpnB = qb ? qb->GetQpn() : b->ReserveQp();
        uint32_t psnA = m_randomPsn ? m_psnRng->GetInteger(0, 0xffffff) : 0;
        uint32_t psnB = m_randomPsn ? m_psnRng->GetInteger(0, 0xffffff) : 0;
        // Entropy: the RoCE convention of a UDP source port in 49152..65535 per QP.
        auto entropy = [](uint32_t qpn, uint32_t other) {
            return static_cast<uint16_t>(49152 + ((qpn * 2654435761u) ^ other) % 16384);
        };
        if (qa)
        {
            qa->Connect(b->GetAddress(portB), qpnB, psnA, psnB, entropy(qpnA, qpnB));
        }
        if (qb)
        {
            qb->Connect(a->GetAddress(portA), qpnA, psnB, psnA, entropy(qpnB, qpnA));
        }
        pairs.emplace_back(qa, qb);
    }
    return pairs;
}

bool
RoceQpConnector::IsLocal(const Ptr<RoceNic>& nic)
{
    Ptr<Node> node = nic->GetObject<Node>();
    return !node || node->GetSystemId() == Simulator::GetSystemId();
}

int64_t
RoceQpConnector::AssignStreams(int64_t stream)
{
    m_psnRng->SetStream(stream);
    return 1;
}

} // namespace ns3
