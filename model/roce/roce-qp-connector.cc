/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-qp-connector.h"

#include "ns3/fabric-input-error.h"

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
    for (uint32_t i = 0; i < nQps; ++i)
    {
        Ptr<RoceQueuePair> qa = a->CreateQp(portA);
        Ptr<RoceQueuePair> qb = b->CreateQp(portB);
        uint32_t psnA = m_randomPsn ? m_psnRng->GetInteger(0, 0xffffff) : 0;
        uint32_t psnB = m_randomPsn ? m_psnRng->GetInteger(0, 0xffffff) : 0;
        // Entropy: the RoCE convention of a UDP source port in 49152..65535 per QP.
        auto entropy = [](uint32_t qpn, uint32_t other) {
            return static_cast<uint16_t>(49152 + ((qpn * 2654435761u) ^ other) % 16384);
        };
        qa->Connect(b->GetAddress(portB),
                    qb->GetQpn(),
                    psnA,
                    psnB,
                    entropy(qa->GetQpn(), qb->GetQpn()));
        qb->Connect(a->GetAddress(portA),
                    qa->GetQpn(),
                    psnB,
                    psnA,
                    entropy(qb->GetQpn(), qa->GetQpn()));
        pairs.emplace_back(qa, qb);
    }
    return pairs;
}

int64_t
RoceQpConnector::AssignStreams(int64_t stream)
{
    m_psnRng->SetStream(stream);
    return 1;
}

} // namespace ns3
