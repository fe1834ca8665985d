/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the frames one MPI process sends to the others, in batches.
 */
#ifndef PFC_REMOTE_EXCHANGE_H
#define PFC_REMOTE_EXCHANGE_H

#include "ns3/event-id.h"
#include "ns3/fabric-frame.h"
#include "ns3/fabric-note-channel.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class PfcNetDevice;
class CausalOrderScheduler;
struct CausalKey;

/**
 * \ingroup ai-fabric-link
 * \brief Carries the frames one MPI process sends on its cables to other processes in batches:
 *        one ns-3 MPI message per destination process and deadline instead of one per frame.
 *
 * ns-3's distributed engine (DistributedSimulatorImpl, the granted time window) lets process B
 * run up to the earliest pending event of all processes plus its lookahead L_B (its smallest
 * cable delay to another process) before the processes synchronize. A frame that leaves at t0
 * on a cable of delay d arrives at rx = t0 + frame time + d, and its message reaches B in time
 * if it is sent before rx - L_B (simulated time). The exchange keeps the frames for each
 * destination process in one buffer and sends it when the earliest such deadline among them
 * comes up (an event at that time), or as soon as the buffer is full (ns-3's MPI interface
 * receives messages of at most 2000 bytes). The destination unpacks a batch sent at t at
 * t + L_B + 1 time step, the first instant it cannot have simulated yet, so batches are
 * unpacked in the order they were sent, and its copy of each cable delivers every frame at the
 * frame's own arrival time (PfcChannel::InjectRemote), in the order the frames were sent:
 * batching changes no arrival time and no order on a cable; it divides the MPI messages by the
 * frames a batch holds (up to 15 RoCE data frames: 36 B of record and ~87 B of encoded headers
 * each).
 *
 * Under a CausalOrderScheduler (ns3::CausalDistributedSimulatorImpl) each frame also carries
 * the key its arrival event would have had sequentially (drawn at the sender), and the
 * receiver schedules the arrival with it, so simultaneous events run in the sequential order.
 * A batch must then be unpacked strictly before its frames arrive, never at the instant of an
 * arrival (events of that instant may have run): the exchange bounds the engine's window one
 * time step below the cables (CausalOrderHost::BoundLookahead, at SetLookahead), so that a
 * batch sent at t is unpacked at t + L_B, and a frame sent at t, which takes at least one time
 * step to serialize, arrives after that (a frame that takes none at the run's Time resolution
 * aborts, naming its size). Without that bound (another engine) the deadline leaves the batch
 * one more time step instead.
 *
 * Notes: a model above the link (a collective transport announcing a message to the process of
 * its receiver) sends a few bytes to another process with SendNote(); they travel in the same
 * batches, leave at once and are given to the handler registered under the same id in the
 * destination process when the batch is unpacked (at now + its lookahead, + 1 time step in
 * ns-3's order): before any frame sent from now on can arrive there (it crosses a cable of at
 * least that delay after at least one frame time).
 *
 * Created by FabricTopologyHelper for a run across processes (one per process), given to every
 * cable between processes (PfcChannel::SetRemoteExchange) and aggregated to the helper
 * (`topology->GetObject<PfcRemoteExchange>()` for its counters). A cable between processes
 * connected without such a helper has one of its own, with its delay as the lookahead (never
 * below the destination's, so its deadlines are safe). Builds without ns-3's MPI module
 * compile it but never send (Send aborts).
 */
class PfcRemoteExchange : public FabricNoteChannel
{
  public:
    /// Bytes of one batch's records at most (ns-3's MPI messages: 2000 bytes with the
    /// interface's 16-byte prefix and the packet's serialization).
    static constexpr uint32_t MAX_BATCH_BYTES = 1900;
    /// Bytes before each frame's encoding in a batch: arrival time (8), node (4), device (4),
    /// and the CausalKey of its arrival event (creating time 8, creator 4, number 8; zeros
    /// when the run does not use CausalOrderScheduler).
    static constexpr uint32_t RECORD_PREFIX_BYTES = 36;
    /// Bytes before a batch's records: the sending process's system id (4).
    static constexpr uint32_t BATCH_PREFIX_BYTES = 4;
    /// A record's device index that marks a note (its node field is the handler id).
    static constexpr uint32_t NOTE_DEVICE = 0xFFFFFFFF;
    /// Bytes of a note at most (its record: the prefix, a 4-byte length, the note).
    static constexpr uint32_t MAX_NOTE_BYTES =
        MAX_BATCH_BYTES - BATCH_PREFIX_BYTES - RECORD_PREFIX_BYTES - 4;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcRemoteExchange();

    /**
     * \brief Set a destination process's lookahead.
     * \param system the destination process (ns-3 system id)
     * \param lookahead its smallest cable delay to another process (> 0; aborts otherwise)
     */
    void SetLookahead(uint32_t system, Time lookahead);

    /**
     * \brief Send a frame to the process of \p dst.
     * \param frame the frame (consumed); its encoding must fit one batch (a frame whose bytes
     *        after the head are not all zero and that is over ~1,800 bytes aborts naming its
     *        size)
     * \param dst the receiving port (this process's copy of a port of another process)
     * \param rxTime the frame's arrival time (> now + the destination's lookahead)
     *
     * Under the causal order (CausalOrderScheduler) a frame sent from an event outside any
     * node's context aborts naming the destination: its place among simultaneous events would
     * depend on the process count.
     */
    void Send(FabricFrame& frame, const Ptr<PfcNetDevice>& dst, const Time& rxTime);

    /**
     * \brief A port at the end of a cable from another process (PfcChannel::SetRemoteExchange
     *        gives both ends of every such cable): notes to its process are addressed to the
     *        first one.
     * \param port the port
     */
    void AddReceivingPort(const Ptr<PfcNetDevice>& port);
    /**
     * \brief Register a handler of notes from other processes. Every process registers the
     *        same handlers in the same order: a note goes to the handler of the same id.
     * \param handler the handler (not null; aborts otherwise)
     * \return its id (the registration index)
     */
    uint32_t AddNoteHandler(NoteHandler handler) override;
    /**
     * \brief Send a note to handler \p handler of process \p system. It leaves now and is
     *        handled there at now + that process's lookahead (+ 1 time step), before any frame
     *        sent from now on arrives, in the order notes were sent.
     * \param system the destination process (one with a lookahead; aborts otherwise)
     * \param handler the handler id (AddNoteHandler)
     * \param note its bytes (at most MAX_NOTE_BYTES; aborts naming the size otherwise)
     */
    void SendNote(uint32_t system, uint32_t handler, const std::vector<uint8_t>& note) override;
    /// \return notes sent to other processes
    uint64_t GetNotesSent() const;

    /**
     * \brief A batch from another process arrives (the MpiReceiver callback of this process's
     *        receiving ports). It waits, with the other batches of this instant, for Unpack():
     *        ns-3 hands the batches of one synchronization over in the order MPI happened to
     *        receive them, and the order in which their frames are scheduled decides the order
     *        of simultaneous arrivals.
     * \param batch the batch's bytes
     */
    void Receive(Ptr<Packet> batch);

    /// \return frames sent to other processes
    uint64_t GetFramesSent() const;
    /// \return MPI messages sent (batches)
    uint64_t GetMessagesSent() const;

    /**
     * \brief Append one frame's record to a batch being written (what Send() does; tests
     *        build batches with it).
     * \param out the batch's bytes
     * \param dst the receiving port
     * \param rxTime the frame's arrival time
     * \param key the CausalKey of its arrival event
     * \param frame the frame (not consumed)
     * \return bytes of the frame's encoding (after the record prefix)
     */
    static uint32_t AppendRecord(std::vector<uint8_t>& out,
                                 const Ptr<PfcNetDevice>& dst,
                                 const Time& rxTime,
                                 const CausalKey& key,
                                 const FabricFrame& frame);

  protected:
    void DoDispose() override;

  private:
    /// The frames waiting for one destination process.
    struct Outbox
    {
        std::vector<uint8_t> bytes;    //!< records: rx time, node, device, frame encoding
        Time deadline;                 //!< when the batch must leave (earliest frame's)
        uint32_t anchorNode{0};        //!< a receiving node of the batch (ns-3 routes by it)
        uint32_t anchorDevice{0};      //!< its receiving device's interface index
        EventId flush;                 //!< the event sending the batch at its deadline
        uint32_t portNode{UINT32_MAX}; //!< a receiving port of the process (for notes)
        uint32_t portDevice{0};        //!< its interface index
    };

    /**
     * \brief Start the batch for \p system if empty, and check that it has a lookahead.
     * \param system the destination process
     * \return its outbox
     */
    Outbox& OutboxOf(uint32_t system);
    /**
     * \brief Have the batch for \p system leave at \p deadline at the latest.
     * \param system the destination process
     * \param deadline when (>= now)
     * \param first the batch's first record was just written
     */
    void Schedule(uint32_t system, const Time& deadline, bool first);
    /**
     * \brief Send the batch for \p system now.
     * \param system the destination process
     */
    void Flush(uint32_t system);

    /// Give every frame of the batches received at this instant to its cable, batches in the
    /// order of their sending process, each in the order it was written: the same order
    /// whatever order MPI received them in.
    void Unpack();

    /**
     * \brief Give one batch's frames to their cables.
     * \param in the batch's bytes (prefix, then records)
     */
    void UnpackBatch(const std::vector<uint8_t>& in);

    std::vector<Outbox> m_out;           //!< by destination process
    std::vector<Ptr<Packet>> m_received; //!< batches waiting for Unpack()
    /// \return the run's CausalOrderScheduler, or null (looked up once)
    CausalOrderScheduler* Causal();

    std::vector<Time> m_lookahead;           //!< by destination process
    CausalOrderScheduler* m_causal{nullptr}; //!< the run's causal scheduler, if any
    bool m_causalLooked{false};              //!< m_causal was looked up
    bool m_bounded{false};  //!< the causal engine's lookahead is one step below the cables
    uint64_t m_frames{0};   //!< frames sent
    uint64_t m_messages{0}; //!< batches sent
    uint64_t m_notes{0};    //!< notes sent
    std::vector<NoteHandler> m_noteHandlers; //!< by id
};

} // namespace ns3

#endif /* PFC_REMOTE_EXCHANGE_H */
