/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the per-rank executor of collective schedules.
 */
#ifndef COLLECTIVE_APPLICATION_H
#define COLLECTIVE_APPLICATION_H

#include "collective-schedule.h"
#include "collective-transport.h"
#include "collective-types.h"
#include "nccl-protocol.h"
#include "nccl-tuner.h"
#include "nvls-engine.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-ring.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class CollectiveCommunicator;

/**
 * \ingroup ai-fabric-collective
 * \brief How one collective runs on its ranks (chosen by the CollectiveCommunicator, from
 *        NCCL's tuner or forced): protocol framing and pipelining, NCCL's latencies and the
 *        GPU-side throughput limits of the (algorithm, protocol).
 */
struct CollectiveExecution
{
    NcclAlgorithm algorithm{NcclAlgorithm::RING}; //!< NCCL algorithm (for reports)
    std::string algorithmName{"ring"};            //!< schedule's algorithm name
    NcclProtocol protocol{NcclProtocol::SIMPLE};  //!< protocol
    uint32_t channels{1};                         //!< channels
    uint64_t pieceBytes{512 * 1024};              //!< data bytes per piece (protocol step), >= 1
    uint32_t slots{8};                            //!< pieces in flight per connection (NCCL_STEPS)
    Time baseLatency;                             //!< before a rank's first send
    Time nvLinkLatency;                           //!< per send over NVLink
    Time networkLatency;                          //!< per send through the network
    /// Data bytes/s one channel of a rank sends at most (0: no cap): the (algorithm,
    /// protocol)'s per-channel cap, and its share of a per-GPU cap (LL's llMaxBw / channels).
    double channelRate{0};
    double predictedUs{0}; //!< NCCL's predicted time, us (-1: not tuned, AlltoAll)
};

/**
 * \ingroup ai-fabric-collective
 * \brief One rank of a communicator (an ns-3 Application on the rank's node): executes the
 *        rank's part of each collective's CollectiveSchedule over the communicator's
 *        CollectiveTransport.
 *
 * Collectives run one at a time per rank, in the order the communicator enqueues them (one
 * NCCL stream per communicator); a rank starts the next one when it has finished the previous
 * one. Data for a collective this rank has not started yet (a faster peer) is accepted and
 * counted.
 *
 * Timing (NCCL's protocols and latency model, REFERENCE "Collectives"; every collective
 * carries its CollectiveExecution, chosen by the communicator):
 *  - when a rank starts a collective it waits the base latency of the (algorithm, protocol)
 *    (NCCL: Ring LL/LL128/Simple 6.6/14/8.4 us) before its first send;
 *  - a send becomes ready when every receive it depends on has arrived and the previous send
 *    of its lane (CollectiveSchedule: a channel's thread block) has been handed over; it is then
 *    posted
 *    after the per-hop latency of its hop (NVLink or network, as CollectiveTransport::GetHopType
 *    says; NCCL: Ring LL/LL128/Simple 0.6/1.9/3.4 us over NVLink, 2.7/4.0/14 us network);
 *  - a posted send moves through its connection (peer, channel) in pieces of at most one
 *    protocol step of data (LL 32 KiB, LL128 576,000 B, Simple 512 KiB), at most NCCL_STEPS =
 *    8 pieces in flight per connection; a slot is freed when the transport completes
 *    (acknowledges) the piece. Ready sends of one connection are served in the order they
 *    became ready. A piece travels as the protocol frames it: LL 16 B per 8 B of data, LL128
 *    128 B per 120 B, Simple the data;
 *  - the GPU side bounds how fast pieces leave: a channel is one CUDA block that copies (and
 *    reduces) its pieces one after another, at most at the (algorithm, protocol)'s per-channel
 *    data rate (NCCL's per-channel caps: ring LL128 36.7 GB/s, tree 36 / LL128 29 GB/s on
 *    Hopper across more than 2 nodes; LL's per-GPU cap llMaxBw shared by the channels); a piece
 *    waits until its channel has room (pacing only: an idle channel sends at once). NVLink's
 *    own limit is the topology's NVLink data rate.
 * When a send is complete is the SendCompletion attribute: Delivery (default) when all of its
 * data has arrived at the peer (as an NCCL kernel, a rank does not wait for network
 * acknowledgements); Posted when its last piece has been handed to the transport (an NCCL
 * kernel's own view: its proxy thread carries the data on); Acknowledged when the transport
 * has completed every piece (the sender's completion queue). A rank has finished a collective
 * when all of its sends are complete and all of its receives have arrived. Posted and
 * Acknowledged are what a sender can know by itself, which a run across MPI processes needs
 * (Delivery would need the receiver's process to tell the sender's at the instant of arrival);
 * across processes the communicator refuses Delivery, naming this attribute.
 * NVLS operations (CollectiveSendKind NVLS_*) go to the rank's NvlsEngine
 * (CollectiveCommunicator::GetNvlsBinding) instead of the transport, piece by piece, one in
 * flight per connection (an NVLS warp group issues its chunk's multimem instructions before it
 * moves to the next chunk), without a per-hop latency (the engine's own) and without the
 * channel's rate cap (the engine's pipes pace them).
 * The per-rank work is per piece and per step, O(1) each; nothing per packet.
 *
 * A rank's arrivals are counted at the rank: the transport tells the sender's application of
 * each delivered piece, and it passes the piece to the receiving rank's application at once
 * (also when the sender has finished, or is simulated by another MPI process: then this
 * application is a stand-in that runs nothing itself, and only passes on the arrivals its
 * transport reports in this process).
 *
 * Failure: a piece the transport fails makes the rank report (communicator, collective, rank,
 * step, peer, reason) to its CollectiveCommunicator, which fails the collective and aborts
 * every rank; this application then does nothing more.
 */
class CollectiveApplication : public Application,
                              public CollectiveMessageListener,
                              public NvlsListener
{
  public:
    /// When a send is complete (attribute SendCompletion).
    enum SendCompletion
    {
        SEND_AT_DELIVERY = 0, //!< all of its data has arrived at the peer (default)
        SEND_AT_POST,         //!< its last piece has been handed to the transport
        SEND_AT_ACK,          //!< the transport has completed (acknowledged) every piece
    };

    /// Step trace: collective number, algorithm step, peer (global rank), bytes.
    typedef void (*StepTracedCallback)(uint32_t seq, uint32_t step, uint32_t peer, uint64_t bytes);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    CollectiveApplication();
    ~CollectiveApplication() override;

    /**
     * \brief Bind to a communicator (done by CollectiveCommunicator).
     * \param comm the communicator
     * \param commRank this rank in the communicator
     * \param globalRank this rank in the transport
     */
    void Setup(Ptr<CollectiveCommunicator> comm, uint32_t commRank, uint32_t globalRank);
    /// \return the communicator
    Ptr<CollectiveCommunicator> GetCommunicator() const;
    /// \return the communicator rank
    uint32_t GetCommRank() const;
    /// \return the transport (global) rank
    uint32_t GetGlobalRank() const;

    /**
     * \brief Queue collective \p seq of the communicator (done by CollectiveCommunicator).
     * \param seq collective number (its schedule must be known to the communicator)
     */
    void Enqueue(uint32_t seq);
    /// Stop everything: the communicator failed.
    void Abort();
    /// \return true while a collective is running on this rank
    bool IsBusy() const;
    /// \return the SendCompletion attribute
    SendCompletion GetSendCompletion() const;
    /**
     * \return true if this rank's node is simulated by this process (always in a sequential
     *         run); otherwise this application is a stand-in (see the class comment)
     */
    bool IsLocal() const;

    /// \return payload bytes of all completed (delivered) sends, all collectives
    uint64_t GetBytesSent() const;
    /// \return payload bytes of all completed receives
    uint64_t GetBytesReceived() const;
    /// \return completed sends
    uint64_t GetSendsCompleted() const;
    /// \return completed receives
    uint64_t GetReceivesCompleted() const;
    /// \return transport messages (pieces) posted
    uint64_t GetPiecesPosted() const;
    /**
     * \brief Where collective \p seq is stuck on this rank (for timeout reports).
     * \param seq collective number
     * \param[out] step step of the first receive not arrived, else of the first send not
     *             completed
     * \param[out] peer its peer (communicator rank)
     * \return false if this rank has nothing pending for \p seq
     */
    bool GetFirstPendingStep(uint32_t seq, uint32_t* step, uint32_t* peer) const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Send pipeline of one connection.
    struct Connection
    {
        FabricRing<uint32_t> ready;        //!< ready sends, in order
        uint32_t current{COLLECTIVE_NONE}; //!< send being posted
        uint64_t posted{0};                //!< bytes of current posted
        uint32_t inflight{0};              //!< pieces in flight (slots used)
    };

    /// One collective on this rank.
    struct Run
    {
        Ptr<const CollectiveSchedule> schedule;              //!< the schedule
        const CollectiveSchedule::Program* program{nullptr}; //!< this rank's part
        CollectiveExecution exec;                            //!< how it runs
        bool started{false};                                 //!< base latency over: sends go
        bool failed{false};                                  //!< failed or aborted
        std::vector<uint32_t> depsLeft;                      //!< per send: receives still missing
        std::vector<uint32_t> piecesLeft;                    //!< per send: pieces not delivered
        std::vector<bool> laneBlocked;  //!< per send: its lane's previous send not handed over
        std::vector<uint32_t> recvLeft; //!< per receive: pieces missing
        std::vector<bool> recvDone;     //!< per receive: arrived
        std::vector<Connection> conns;  //!< per connection
        uint32_t sendsLeft{0};          //!< sends not completed
        uint32_t recvsLeft{0};          //!< receives not arrived
        std::vector<Time> channelFree;  //!< per channel: when its rate cap has room again
    };

    /// \return the run of \p seq, created on first use
    Run& GetRun(uint32_t seq);
    /// \return the run of \p seq, or null
    Run* FindRun(uint32_t seq);
    /// Start the next queued collective if idle.
    void StartNext();
    /// BaseLatency elapsed: release the sends without dependencies.
    void BeginRun(uint32_t seq);
    /// A send's dependencies are met: post it after its step latency.
    void MakeReady(uint32_t seq, uint32_t send);
    /// The step latency elapsed.
    void SendReady(uint32_t seq, uint32_t send);
    /// Post pieces on a connection while slots are free.
    void Pump(uint32_t seq, Run& run, uint32_t conn);
    /**
     * \brief Reserve the channel's copy engine for a piece: the earliest time the channel's
     *        rate cap has room, and book the piece's time on it.
     * \param run the run
     * \param channel the send's channel
     * \param data the piece's data bytes
     * \return when the piece may be posted (>= now)
     */
    Time Reserve(Run& run, uint32_t channel, uint64_t data);
    /// Hand a piece to the transport (after its pacing delay).
    void Post(uint32_t seq, uint32_t send, uint64_t wireBytes);
    /// \return the number of pieces \p bytes of data take with \p exec (>= 1)
    static uint32_t PiecesOf(uint64_t bytes, const CollectiveExecution& exec);
    /// A piece of one of this rank's sends arrived at its destination.
    void PieceArrived(uint32_t seq, uint32_t send, uint64_t bytes);
    /// Every destination has a piece of \p send: count it, complete the send after its last.
    void PieceCompleted(uint32_t seq, uint32_t send);
    // CollectiveMessageListener: the cookie is (collective number << 32) | send index.
    void MessageDelivered(uint64_t cookie, uint64_t bytes) override;
    void MessageSent(uint64_t cookie) override;
    void MessageFailed(uint64_t cookie, const std::string& reason) override;
    // NvlsListener: same cookie.
    void NvlsDelivered(uint64_t cookie, uint32_t member, uint64_t bytes) override;
    void NvlsCompleted(uint64_t cookie) override;
    /// The transport completed (acknowledged) a piece: its slot is free.
    void PieceSent(uint32_t seq, uint32_t send);
    /// The transport failed a piece.
    void PieceFailed(uint32_t seq, uint32_t send, const std::string& reason);
    /// A piece arrived here.
    void PieceDelivered(uint32_t seq, uint32_t recv, uint64_t bytes);
    /// Finish the run if everything is done.
    void MaybeFinish(uint32_t seq);

    Ptr<CollectiveCommunicator> m_comm; //!< communicator
    uint32_t m_commRank;                //!< communicator rank
    uint32_t m_globalRank;              //!< transport rank
    std::map<uint32_t, Run> m_runs;     //!< runs by collective number
    std::deque<uint32_t> m_queue;       //!< collectives waiting
    uint32_t m_current;                 //!< running collective (or NONE)
    uint32_t m_finished;                //!< collectives 0..m_finished-1 are finished here
    bool m_aborted;                     //!< Abort() or StopApplication()
    uint64_t m_bytesSent;               //!< completed send bytes
    uint64_t m_bytesReceived;           //!< completed receive bytes
    uint64_t m_sendsCompleted;          //!< completed sends
    uint64_t m_recvsCompleted;          //!< completed receives
    uint64_t m_piecesPosted;            //!< pieces posted
    SendCompletion m_sendCompletion;    //!< attribute SendCompletion
    TracedCallback<uint32_t, uint32_t, uint32_t, uint64_t> m_stepTrace; //!< send completed
    TracedCallback<uint32_t, uint32_t, uint32_t, uint64_t> m_recvTrace; //!< receive arrived
};

} // namespace ns3

#endif /* COLLECTIVE_APPLICATION_H */
