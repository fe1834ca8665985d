/*
 * SPDX-License-Identifier: GPL-2.0-only
 * ai-fabric: the NVSwitch's multicast and in-switch reduction (NVLink SHARP, "NVLS").
 */
#ifndef NVLS_ENGINE_H
#define NVLS_ENGINE_H

#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief Receives the outcome of NvlsEngine operations (implemented by CollectiveApplication;
 *        one object serves all its operations, told apart by a 64-bit cookie).
 */
class NvlsListener
{
  public:
    virtual ~NvlsListener() = default;
    /**
     * \brief The operation's data has arrived at one member of its group: for a reduce, the
     *        requester (member = its own index); for a multicast, each member in turn.
     * \param cookie the value given to the operation
     * \param member index of the receiving member in the group (NvlsEngine::AddGroup order)
     * \param bytes the operation's bytes
     */
    virtual void NvlsDelivered(uint64_t cookie, uint32_t member, uint64_t bytes) = 0;
    /**
     * \brief The operation is over (after its last delivery): its issuer may reuse the slot.
     * \param cookie the value given to the operation
     */
    virtual void NvlsCompleted(uint64_t cookie) = 0;
};

/**
 * \ingroup ai-fabric-collective
 * \brief The multicast and reduction engine of one server's NVSwitch (NVLink SHARP, Hopper and
 *        later: the `multimem.ld_reduce` and `multimem.st` instructions on a multicast object,
 *        CUDA 12.1+; NVIDIA, "NVLink SHARP" and NCCL 2.17+ NVLS algorithms).
 *
 * A GPU of the server is a port (0..GetNPorts()-1, the GPU's NVLink port on the switch; the
 * topologies use the GPU's local index). A group is a multicast object over some ports (NCCL
 * makes one per communicator and server). Two operations, as the NVLS kernels issue them:
 *  - Reduce(group, member, x): `multimem.ld_reduce` of x bytes: the switch reads x bytes from
 *    every member (each member's up direction carries x), adds them and returns x bytes to
 *    the issuing member (its down direction carries x);
 *  - Multicast(group, member, x): `multimem.st` of x bytes: the issuer's up direction carries
 *    x, the switch replicates them and every member's down direction (the issuer's included)
 *    carries x.
 * So an NVLS AllReduce of S bytes on n GPUs (each reduces and multicasts its S/n) loads every
 * GPU's NVLink with S (1 + 1/n) bytes per direction, against 2 S (n - 1)/n for a ring.
 *
 * Timing: every port direction is a first-come first-served pipe of PortDataRate x Efficiency
 * (Efficiency: the fraction of the NVLink rate multimem traffic sustains; default NCCL's
 * nvlsEfficiency for Hopper, 0.85, tuning.cc; Blackwell 0.74). An operation books its bytes on
 * every pipe it crosses, cut-through: the down direction may not finish before the last up
 * byte has arrived. Its data arrives Latency after it leaves the switch. On 8 H100 GPUs an
 * AllReduce therefore tends to 2 (n-1)/(n+1) x 370.8 x 0.85 = 490 GB/s bus bandwidth (NVIDIA
 * and NCCL: about 480 GB/s, against 370 GB/s for the ring).
 *
 * Model boundary: NVLS traffic is booked on these pipes, not sent as packets: it does not
 * queue with packet traffic on the same NVLink ports (another communicator's ring over
 * NVLink); the scale-out part of NVLSTree is packets. Memory: O(ports + groups); nothing per
 * operation beyond its scheduled deliveries.
 */
class NvlsEngine : public Object
{
  public:
    /// Operation trace: multicast (true: a multicast or a fused reduce-multicast) or reduce,
    /// issuing port, bytes, time the data left the switch for the last member.
    typedef void (*OperationTracedCallback)(bool multicast,
                                            uint32_t port,
                                            uint64_t bytes,
                                            Time done);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    NvlsEngine();
    ~NvlsEngine() override;

    /**
     * \brief The engine of an NVSwitch node, created (and aggregated to it) on first use.
     * \param nvswitch the server's NVSwitch node (not null)
     * \param nPorts its GPU ports (>= 1); a later call may only repeat the same number (aborts
     *        otherwise)
     * \return the engine
     */
    static Ptr<NvlsEngine> GetOrCreate(Ptr<Node> nvswitch, uint32_t nPorts);

    /**
     * \brief Set the number of GPU ports (once, before any group; aborts on 0 or a change).
     * \param nPorts ports (>= 1)
     */
    void SetNPorts(uint32_t nPorts);
    /// \return the GPU ports
    uint32_t GetNPorts() const;
    /**
     * \brief Create a multicast group (NCCL: a communicator's multicast object on this server).
     * \param ports member ports, in member order (>= 1 of them, distinct, each < GetNPorts();
     *        aborts naming the offender)
     * \return the group id (0, 1, ...)
     */
    uint32_t AddGroup(const std::vector<uint32_t>& ports);
    /// \return the number of groups
    uint32_t GetNGroups() const;

    /**
     * \brief multimem.ld_reduce: reduce \p bytes over the group, result to \p member.
     * \param group a group id (aborts if unknown)
     * \param member the issuing member's index in the group (aborts if out of range)
     * \param bytes bytes read from each member and returned (>= 1)
     * \param listener told NvlsDelivered(cookie, member, bytes) then NvlsCompleted(cookie);
     *        must outlive the operation
     * \param cookie handed back
     */
    void Reduce(uint32_t group,
                uint32_t member,
                uint64_t bytes,
                NvlsListener* listener,
                uint64_t cookie);
    /**
     * \brief multimem.st: write \p bytes from \p member to every member of the group.
     * \param group a group id (aborts if unknown)
     * \param member the issuing member's index in the group (aborts if out of range)
     * \param bytes bytes written to every member (>= 1)
     * \param listener told NvlsDelivered(cookie, m, bytes) per member m in arrival order, then
     *        NvlsCompleted(cookie); must outlive the operation
     * \param cookie handed back
     */
    void Multicast(uint32_t group,
                   uint32_t member,
                   uint64_t bytes,
                   NvlsListener* listener,
                   uint64_t cookie);

    /**
     * \brief multimem.ld_reduce and multimem.st fused per element (NVLS AllReduce's kernel):
     *        the group's sum of \p bytes is written to every member. Loads: every member's
     *        up direction x (the reads), the issuer's up x more (the store), every member's
     *        down direction x (the sum), the issuer's down x more (the sum it reads back).
     * \param group a group id (aborts if unknown)
     * \param member the issuing member's index in the group (aborts if out of range)
     * \param bytes bytes reduced and written to every member (>= 1)
     * \param listener told NvlsDelivered(cookie, m, bytes) per member m in arrival order, then
     *        NvlsCompleted(cookie); must outlive the operation
     * \param cookie handed back
     */
    void ReduceMulticast(uint32_t group,
                         uint32_t member,
                         uint64_t bytes,
                         NvlsListener* listener,
                         uint64_t cookie);

    /**
     * \param port a port
     * \return bytes its up direction (GPU to switch) carried
     */
    uint64_t GetUpBytes(uint32_t port) const;
    /**
     * \param port a port
     * \return bytes its down direction (switch to GPU) carried
     */
    uint64_t GetDownBytes(uint32_t port) const;
    /// \return reduce operations issued
    uint64_t GetNReduces() const;
    /// \return multicast operations issued (fused ones included)
    uint64_t GetNMulticasts() const;

  private:
    /// \return the time \p bytes take on one pipe
    Time Duration(uint64_t bytes) const;
    /// Book \p d on a pipe free at \p free: returns the finish, not before \p notBefore
    static Time Book(Time& free, Time d, Time notBefore);
    /// Book an operation (reduce: reads from every member, sum to the issuer; multicast: the
    /// issuer's bytes to every member; both: fused) and schedule its deliveries.
    void Operate(uint32_t group,
                 uint32_t member,
                 uint64_t bytes,
                 bool reduce,
                 bool multicast,
                 NvlsListener* listener,
                 uint64_t cookie);
    /// Check group and member; return the member's port.
    uint32_t PortOf(uint32_t group, uint32_t member) const;

    DataRate m_portRate;                               //!< attribute PortDataRate
    double m_efficiency;                               //!< attribute Efficiency
    Time m_latency;                                    //!< attribute Latency
    std::vector<Time> m_upFree;                        //!< per port: up pipe free at
    std::vector<Time> m_downFree;                      //!< per port: down pipe free at
    std::vector<uint64_t> m_upBytes;                   //!< per port: bytes up
    std::vector<uint64_t> m_downBytes;                 //!< per port: bytes down
    std::vector<std::vector<uint32_t>> m_groups;       //!< per group: member ports
    std::vector<std::pair<Time, uint32_t>> m_arrivals; //!< Operate's scratch: (arrival, member)
    uint64_t m_nReduces{0};                            //!< reduces
    uint64_t m_nMulticasts{0};                         //!< multicasts
    TracedCallback<bool, uint32_t, uint64_t, Time> m_opTrace; //!< Operation trace
};

} // namespace ns3

#endif /* NVLS_ENGINE_H */
