/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a barrier in simulated time, also across MPI processes.
 */
#ifndef FABRIC_BARRIER_H
#define FABRIC_BARRIER_H

#include "fabric-note-channel.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief A barrier in simulated time: every participant arrives when its part of a step is
 *        done, and every participant's release runs at the last arrival plus Latency (a host
 *        barrier's cost, e.g. nccl-tests' MPI barrier between sizes), at the same place among
 *        simultaneous events in a sequential run and in every MPI process of a run split
 *        across processes.
 *
 * Participants are processes: each process calls Arrive() once per round (rounds are counted:
 * the n-th call of every process is round n), when its own part of the round is done. In a run
 * across processes (SetProcesses() with more than one) each arrival is a 16-byte note to every
 * other process through the topology's FabricNoteChannel; a note sent at t is handled by t + L
 * (L, the lookahead between processes, is at most the smallest delay of a cable between them),
 * so a Latency of at least L lets every process schedule the release before it is due. A
 * Latency below that is refused when a release would be due before the process has heard from
 * every other (the error names both). Latency 0 releases inside the last Arrive() call (one
 * process only: the run's old behaviour, e.g. an nccl-tests sweep that starts the next
 * collective in the completion callback of the previous one).
 *
 * Order: under CausalOrderScheduler the release event gets the key (last arrival's time,
 * CONTEXT, round) and runs in context CONTEXT, so that it and the events it creates take the
 * same place among simultaneous events whatever the process count. Work the release starts
 * for a node should move to that node's context (ns-3's ScheduleWithContext), as
 * CollectiveCommunicator's RankContext does for collective ranks.
 */
class FabricBarrier : public Object
{
  public:
    /// Context of the release events: no node has it.
    static constexpr uint32_t CONTEXT = 0xfffffffe;
    /// Bytes of an arrival note: round 4, ok 4, time 8 (ns-3 time steps).
    static constexpr uint32_t NOTE_BYTES = 16;

    /// Release: called once per round in every process; the argument is false when any
    /// process arrived with ok = false.
    typedef Callback<void, bool> ReleaseCallback;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricBarrier();
    ~FabricBarrier() override;

    /**
     * \brief Run across MPI processes. Call in every process, at the same point of the
     *        set-up (it registers a note handler), before the first Arrive().
     * \param notes the topology's note channel (topology->GetObject<FabricNoteChannel>())
     * \param processes number of processes (FabricMpi::GetSize()), >= 1
     * \param self this process's system id (FabricMpi::GetSystemId()), < processes
     * Aborts naming the value when \p notes is null with more than one process, or \p self is
     * out of range.
     */
    void SetProcesses(Ptr<FabricNoteChannel> notes, uint32_t processes, uint32_t self);

    /// \return the latency between the last arrival and the release (Latency attribute)
    Time GetLatency() const;

    /**
     * \brief Arrive at the next round: this process's part of it is done.
     * \param ok false when this process's part failed (every release then gets false)
     * \param release what to run at the release (this process's own callback; not null)
     * Aborts when Latency is 0 in a run across processes (a release needs notes to travel).
     */
    void Arrive(bool ok, ReleaseCallback release);

    /// \return rounds released so far in this process
    uint32_t GetRoundsReleased() const;

  protected:
    void DoDispose() override;

  private:
    /// One round as this process knows it.
    struct Round
    {
        uint32_t arrived{0};     //!< processes heard from (this one included)
        bool ok{true};           //!< all arrivals so far were ok
        Time last;               //!< latest arrival time
        ReleaseCallback release; //!< this process's release (null until it arrives)
        bool selfArrived{false}; //!< this process has arrived
    };

    /**
     * \brief Count an arrival of round \p round at time \p at; schedule the release once every
     *        process has arrived.
     * \param round the round
     * \param ok whether that process's part succeeded
     * \param at its arrival time
     */
    void Count(uint32_t round, bool ok, Time at);
    /// \brief Schedule round \p round's release (every process has arrived).
    /// \param round the round
    void ScheduleRelease(uint32_t round);
    /// \brief Run round \p round's release.
    /// \param round the round
    void Release(uint32_t round);
    /// \brief A note from another process: an arrival.
    /// \param note its bytes
    void OnNote(const std::vector<uint8_t>& note);

    Time m_latency;                     //!< Latency attribute
    Ptr<FabricNoteChannel> m_notes;     //!< null in a run of one process
    uint32_t m_handler{0};              //!< our note handler's id
    uint32_t m_processes{1};            //!< participating processes
    uint32_t m_self{0};                 //!< this process's system id
    uint32_t m_nextRound{0};            //!< round of the next Arrive()
    uint32_t m_released{0};             //!< rounds released
    std::map<uint32_t, Round> m_rounds; //!< rounds not yet released
};

} // namespace ns3

#endif /* FABRIC_BARRIER_H */
