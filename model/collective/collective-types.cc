/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-types.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cctype>
#include <iomanip>

namespace ns3
{

const char*
CollectiveOpName(CollectiveOp op)
{
    switch (op)
    {
    case CollectiveOp::ALL_REDUCE:
        return "AllReduce";
    case CollectiveOp::ALL_GATHER:
        return "AllGather";
    case CollectiveOp::REDUCE_SCATTER:
        return "ReduceScatter";
    case CollectiveOp::BROADCAST:
        return "Broadcast";
    case CollectiveOp::ALL_TO_ALL:
        return "AlltoAll";
    default:
        return "unknown";
    }
}

CollectiveOp
CollectiveOpFromName(const std::string& name)
{
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
    if (n == "allreduce" || n == "ar")
    {
        return CollectiveOp::ALL_REDUCE;
    }
    if (n == "allgather" || n == "ag")
    {
        return CollectiveOp::ALL_GATHER;
    }
    if (n == "reducescatter" || n == "rs")
    {
        return CollectiveOp::REDUCE_SCATTER;
    }
    if (n == "broadcast" || n == "bcast")
    {
        return CollectiveOp::BROADCAST;
    }
    if (n == "alltoall" || n == "a2a")
    {
        return CollectiveOp::ALL_TO_ALL;
    }
    NS_ABORT_MSG("collective operation \"" << name
                                           << "\" is unknown; valid: allreduce (ar), allgather "
                                              "(ag), reducescatter (rs), broadcast (bcast), "
                                              "alltoall (a2a)");
    return CollectiveOp::ALL_REDUCE;
}

double
CollectiveBusBwFactor(CollectiveOp op, uint32_t nRanks)
{
    NS_ABORT_MSG_IF(nRanks == 0, "CollectiveBusBwFactor: 0 ranks is invalid (>= 1)");
    double n = nRanks;
    switch (op)
    {
    case CollectiveOp::ALL_REDUCE:
        return 2.0 * (n - 1) / n;
    case CollectiveOp::ALL_GATHER:
    case CollectiveOp::REDUCE_SCATTER:
    case CollectiveOp::ALL_TO_ALL:
        return (n - 1) / n;
    case CollectiveOp::BROADCAST:
        return 1.0;
    default:
        NS_ABORT_MSG("CollectiveBusBwFactor: unknown operation " << int(op));
    }
    return 0;
}

const char*
CollectiveHopTypeName(CollectiveHopType type)
{
    return type == CollectiveHopType::NVLINK ? "nvlink" : "network";
}

Time
CollectiveRecord::GetDuration() const
{
    return end - start;
}

void
CollectiveRecord::ComputeBandwidths()
{
    algBw = busBw = 0;
    const double seconds = GetDuration().GetSeconds();
    if (seconds > 0)
    {
        algBw = double(bytes) / seconds / 1e9;
        busBw = algBw * CollectiveBusBwFactor(op, nRanks);
    }
}

void
CollectiveRecord::WriteCsvHeader(std::ostream& os)
{
    os << "communicator,seq,op,algorithm,protocol,bytes,padded_bytes,ranks,channels,root,enqueued_"
          "us,"
          "start_us,end_us,time_us,algbw_GBps,busbw_GBps,status,failed_rank,failed_step,"
          "failed_peer,reason\n";
}

void
CollectiveRecord::WriteCsvRow(std::ostream& os) const
{
    auto opt = [&os](uint32_t v) {
        if (v != COLLECTIVE_NONE)
        {
            os << v;
        }
    };
    std::string why = reason;
    std::replace(why.begin(), why.end(), ',', ';');
    std::replace(why.begin(), why.end(), '\n', ' ');
    std::ios::fmtflags flags = os.flags();
    std::streamsize precision = os.precision();
    os << communicator << ',' << seq << ',' << CollectiveOpName(op) << ',' << algorithm << ','
       << protocol << ',' << bytes << ',' << paddedBytes << ',' << nRanks << ',' << channels << ','
       << root << ',' << std::fixed << std::setprecision(6) << enqueued.GetSeconds() * 1e6 << ','
       << start.GetSeconds() * 1e6 << ',' << end.GetSeconds() * 1e6 << ','
       << GetDuration().GetSeconds() * 1e6 << ',' << algBw << ',' << busBw << ','
       << (failed ? "failed" : (completed ? "ok" : "incomplete")) << ',';
    opt(failedRank);
    os << ',';
    opt(failedStep);
    os << ',';
    opt(failedPeer);
    os << ',' << why << '\n';
    os.flags(flags);
    os.precision(precision);
}

} // namespace ns3
