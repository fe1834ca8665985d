/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the receiver side of Ultra Ethernet's receiver-credit congestion control (RCCC):
 * per sender context credit state and the per-port credit pacer.
 */
#ifndef UET_CREDIT_PACER_H
#define UET_CREDIT_PACER_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class UetPdc;
class UetCreditPacer;

/**
 * \ingroup ai-fabric-uet
 * \brief What a receiving NIC knows of one sender's congestion control context under RCCC
 *        (UET.md "RCCC"): the credit it asked for (cumulative credit_target) and the credit
 *        granted (cumulative), both in bytes on the wire, and the target PDCs its packets
 *        arrive on (a grant leaves on one of them).
 *
 * The wire carries both numbers modulo 2^24; they are widened here against the last value
 * (serial-number arithmetic: a value more than 2^23 behind is stale). A context created while
 * its sender's numbering is already under way (the receiver freed its context first) adopts it
 * from the first target: it starts at most two CreditChunks behind, and its first grants
 * resynchronize the sender [impl]. Owned by the UetNic, keyed by {port, source FEP, traffic
 * class, CCC id}; deleted when its last PDC leaves.
 */
class UetCreditContext
{
  public:
    /// Width of the credit fields on the wire (credit_target, credit), bits.
    static constexpr uint32_t FIELD_BITS = 24;
    /// Mask of a credit field.
    static constexpr uint32_t FIELD_MASK = (1u << FIELD_BITS) - 1;

    /**
     * \param key the NIC's key
     * \param pacer the pacer of the port its packets arrive on
     * \param cccId the sender's CCC id (0..255)
     */
    UetCreditContext(uint64_t key, UetCreditPacer* pacer, uint8_t cccId = 0);

    UetCreditContext(const UetCreditContext&) = delete;
    UetCreditContext& operator=(const UetCreditContext&) = delete;

    /// \return the NIC's key
    uint64_t GetKey() const
    {
        return m_key;
    }

    /// \return the sender's CCC id
    uint8_t GetCccId() const
    {
        return m_cccId;
    }

    /**
     * \brief A credit_target arrived (RUD_CC_REQ, a trimmed one, or Credit-Request).
     * \param field the 24-bit field
     * \param chunk the pacer's chunk (a new context starts at most two chunks behind)
     * \return true if the target advanced
     */
    bool OnTarget(uint32_t field, uint32_t chunk);

    /// \return credit asked for and not granted yet, bytes
    uint64_t GetWanted() const
    {
        return m_target > m_granted ? m_target - m_granted : 0;
    }

    /// \return credit granted beyond the target (idle credit the sender holds), bytes
    uint64_t GetExtra() const
    {
        return m_granted > m_target ? m_granted - m_target : 0;
    }

    /// \return cumulative target, bytes
    uint64_t GetTarget() const
    {
        return m_target;
    }

    /// \return cumulative credit granted, bytes
    uint64_t GetGranted() const
    {
        return m_granted;
    }

    /// \return the grant as the wire carries it (modulo 2^24)
    uint32_t GetGrantedField() const
    {
        return static_cast<uint32_t>(m_granted & FIELD_MASK);
    }

    /**
     * \brief Grant credit (the pacer).
     * \param bytes at most GetWanted()
     */
    void Grant(uint64_t bytes)
    {
        m_granted += bytes;
    }

    /// \param pdc a target PDC whose packets carry this context's requests
    void Join(UetPdc* pdc);
    /// \param pdc a member that closes
    void Leave(UetPdc* pdc);

    /// \return member PDCs
    uint32_t GetMembers() const
    {
        return static_cast<uint32_t>(m_members.size());
    }

    /// \param pdc the member that carried the latest request (grants leave on it)
    void SetVia(UetPdc* pdc)
    {
        m_via = pdc;
    }

    /// \return the PDC a grant leaves on (the latest requester, else any member; null if none)
    UetPdc* GetVia() const;

    /// \return its pacer
    UetCreditPacer* GetPacer() const
    {
        return m_pacer;
    }

    bool queued{false};     //!< in its pacer's active queue (the pacer's bookkeeping)
    bool idleQueued{false}; //!< in its pacer's idle queue

  private:
    uint64_t m_key;                 //!< the NIC's key
    uint8_t m_cccId;                //!< the sender's CCC id
    UetCreditPacer* m_pacer;        //!< the port's pacer
    uint64_t m_target{0};           //!< cumulative credit_target, bytes
    uint64_t m_granted{0};          //!< cumulative grant, bytes
    bool m_fresh{true};             //!< no target seen yet
    std::vector<UetPdc*> m_members; //!< target PDCs
    UetPdc* m_via{nullptr};         //!< latest requester
};

/**
 * \ingroup ai-fabric-uet
 * \brief The credit pacer of one receiving NIC port (RCCC; UET.md "RCCC", UEC htsim's pull
 *        pacer): it grants credit at Rate (a fraction of the port's line rate, 0.99 by
 *        default) in chunks of at most Chunk bytes, round-robin over the sender contexts that
 *        want credit. A grant leaves at once as a Credit control packet carrying the context's
 *        cumulative credit; the next grant waits for the previous one's bytes at Rate, so the
 *        credit granted never exceeds Rate x time (plus one chunk).
 *
 * Idle credit (UEC htsim's "slow pull"): when no context wants credit, the pacer's spare time
 * goes to the contexts it satisfied, round-robin, until each holds IdleCredit bytes granted
 * beyond its target, so that a sender's next message (a collective's next step) leaves at
 * once instead of waiting a round trip for credit. It schedules events only while some
 * context wants credit or has idle credit to receive: a receiver that went quiet stops.
 */
class UetCreditPacer
{
  public:
    /**
     * \param rate the grant rate, > 0 (the NIC checks it against the line rate)
     * \param chunk bytes per grant at most, > 0
     * \param idleCredit idle credit per context, bytes (0: none)
     */
    UetCreditPacer(DataRate rate, uint32_t chunk, uint64_t idleCredit);
    ~UetCreditPacer();

    UetCreditPacer(const UetCreditPacer&) = delete;
    UetCreditPacer& operator=(const UetCreditPacer&) = delete;

    /**
     * \brief \p ctx wants credit (a new target, or a trim NACK re-queues it): queued at the
     *        back unless it already is.
     * \param ctx the context
     */
    void Request(UetCreditContext* ctx);
    /**
     * \brief \p ctx goes away: out of the queue.
     * \param ctx the context
     */
    void Remove(UetCreditContext* ctx);

    /// \return contexts waiting for a grant
    uint32_t GetQueued() const
    {
        return static_cast<uint32_t>(m_queue.size());
    }

    /// \return grants sent
    uint64_t GetGrants() const
    {
        return m_grants;
    }

    /// \return bytes of credit granted
    uint64_t GetGrantedBytes() const
    {
        return m_grantedBytes;
    }

    /// \return the grant rate
    DataRate GetRate() const
    {
        return m_rate;
    }

    /// \return bytes per grant at most
    uint32_t GetChunk() const
    {
        return m_chunk;
    }

  private:
    /// Grant the context at the front of the queue, then wait for its bytes at the rate.
    void GrantNext();
    /// Schedule GrantNext at the earliest allowed time unless it is scheduled.
    void Arm();
    /// \param ctx a context the pacer satisfied: it may receive idle credit
    void AddIdle(UetCreditContext* ctx);
    /**
     * \brief Grant \p ctx and send the grant.
     * \param ctx the context
     * \param via the PDC it leaves on
     * \param bytes the grant
     */
    void Send(UetCreditContext* ctx, UetPdc* via, uint64_t bytes);

    DataRate m_rate;                       //!< grant rate
    uint32_t m_chunk;                      //!< bytes per grant at most
    uint64_t m_idleCredit;                 //!< idle credit per context, bytes
    std::deque<UetCreditContext*> m_queue; //!< contexts wanting credit, round-robin
    std::deque<UetCreditContext*> m_idle;  //!< satisfied contexts short of idle credit
    EventId m_event;                       //!< next grant
    Time m_nextFree;                       //!< earliest next grant
    uint64_t m_grants{0};                  //!< grants sent
    uint64_t m_grantedBytes{0};            //!< credit granted, bytes
};

} // namespace ns3

#endif /* UET_CREDIT_PACER_H */
