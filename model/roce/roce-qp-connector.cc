/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-qp-connector.h"

#include "ns3/fabric-input-error.h"
#include "ns3/node.h"
#include "ns3/rng-seed-manager.h"
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
        if (qa)
        {
            qa->Connect(b->GetAddress(portB), qpnB, psnA, psnB, Entropy(qpnA, qpnB));
        }
        if (qb)
        {
            qb->Connect(a->GetAddress(portA), qpnA, psnB, psnA, Entropy(qpnB, qpnA));
        }
        pairs.emplace_back(qa, qb);
    }
    return pairs;
}

uint16_t
RoceQpConnector::Entropy(uint32_t qpn, uint32_t other)
{
    // The RoCE convention of a UDP source port in 49152..65535 per QP.
    return static_cast<uint16_t>(49152 + ((qpn * 2654435761u) ^ other) % 16384);
}

uint64_t
RoceQpConnector::PerPeerQpn(uint32_t base,
                            uint32_t peer,
                            uint32_t k,
                            uint32_t ranks,
                            bool responder)
{
    return base + 2 * (uint64_t(k) * ranks + peer) + (responder ? 1 : 0);
}

bool
RoceQpConnector::PerPeerResponder(uint32_t base,
                                  uint32_t qpn,
                                  uint32_t ranks,
                                  uint32_t* peer,
                                  uint32_t* k)
{
    if (qpn < base || (qpn - base) % 2 == 0)
    {
        return false;
    }
    const uint32_t j = (qpn - base) / 2; // k ranks + peer
    *peer = j % ranks;
    *k = j / ranks;
    return true;
}

Ptr<RoceQueuePair>
RoceQpConnector::ConnectPerPeer(const PerPeerEnd& src,
                                const PerPeerEnd& dst,
                                uint32_t k,
                                uint32_t ranks,
                                bool responder)
{
    const uint64_t qpnA = PerPeerQpn(src.base, dst.rank, k, ranks, false);
    const uint64_t qpnB = PerPeerQpn(dst.base, src.rank, k, ranks, true);
    NS_ABORT_MSG_IF(std::max(qpnA, qpnB) > RoceBthHeader::MAX_24BIT,
                    "RoceQpConnector: connection " << k << " from rank " << src.rank << " to rank "
                                                   << dst.rank << " of " << ranks << " needs QPN "
                                                   << std::max(qpnA, qpnB)
                                                   << "; per-peer numbering has 2^24 - 1");
    // Start PSNs: a hash of the seed, the run, this stream and the connection (splitmix64).
    auto psn = [this, &src, &dst, k](uint64_t side) -> uint32_t {
        if (!m_randomPsn)
        {
            return 0;
        }
        uint64_t x = RngSeedManager::GetSeed() ^ (RngSeedManager::GetRun() << 32) ^
                     (uint64_t(m_psnRng->GetStream()) << 48);
        for (uint64_t v : {uint64_t(src.rank), uint64_t(dst.rank), uint64_t(k), side})
        {
            x += 0x9e3779b97f4a7c15ull + v;
            x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
            x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
            x ^= x >> 31;
        }
        return static_cast<uint32_t>(x & 0xffffff);
    };
    const auto a = static_cast<uint32_t>(qpnA);
    const auto b = static_cast<uint32_t>(qpnB);
    if (responder)
    {
        Ptr<RoceQueuePair> qp = dst.nic->CreateQpAt(b, dst.port);
        qp->Connect(src.nic->GetAddress(src.port), a, psn(1), psn(0), Entropy(b, a));
        return qp;
    }
    Ptr<RoceQueuePair> qp = src.nic->CreateQpAt(a, src.port);
    qp->Connect(dst.nic->GetAddress(dst.port), b, psn(0), psn(1), Entropy(a, b));
    return qp;
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
