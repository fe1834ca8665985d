/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the PSN bookkeeping of a UET PDC (Ultra Ethernet PDS, reliable modes), without
 * events or packets: what the sender has outstanding, what the receiver has seen, and the
 * cumulative ACK + SACK bitmap between them.
 */
#ifndef UET_PSN_WINDOW_H
#define UET_PSN_WINDOW_H

#include "ns3/nstime.h"
#include "ns3/uet-pds-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The receiver side of a reliable PDC's PSN space: which PSNs arrived, the cumulative
 *        ACK (CACK_PSN) and the 64-bit SACK bitmap, and when an ACK is due.
 *
 * Conventions (UEC 1.0 PDS reliable delivery; the bit order of the SACK bitmap is not in the
 * public sources, so this model defines it):
 *  - CACK_PSN is the last PSN received in order: every PSN up to and including it arrived.
 *    Before any packet it is Start_PSN - 1.
 *  - The SACK bitmap covers 64 PSNs from SACK base = CACK_PSN + sack_psn_offset; bit i
 *    (least significant = 0) is set if PSN base + i arrived. The receiver puts the base at
 *    CACK_PSN + 1 (the first missing PSN), so bit 0 is always clear.
 *  - The window is MP_RANGE PSNs from CACK_PSN + 1: a PSN beyond it is refused
 *    (PSN_OOR_WINDOW); one at or before CACK_PSN, or already received, is a duplicate.
 *
 * ACK generation (UEC 1.0 PDS, spec defaults): each new packet adds max(ACK_Gen_Min_Pkt_Add,
 * its length) to a counter; an ACK is due when the counter reaches ACK_Gen_Trigger, and at once
 * for the first packet, a packet with AR, RETX or SYN, a CE-marked packet and an out-of-order
 * packet (a hole to report).
 *
 * Memory: one bit per PSN of the window (MP_RANGE bits), never per byte.
 */
class UetReceiveWindow
{
  public:
    /// What a data packet's PSN is, for the receiver.
    enum Verdict : uint8_t
    {
        NEW,          //!< first arrival, inside the window: deliver it
        DUPLICATE,    //!< arrived before (or at/before CACK_PSN): re-ACK, do not deliver
        OUT_OF_WINDOW //!< beyond CACK_PSN + MP_RANGE: NACK PSN_OOR_WINDOW, do not deliver
    };

    /**
     * \param startPsn the PDC's Start_PSN (the first PSN the sender uses)
     * \param mpRange window, PSNs (1..2^20; aborts otherwise)
     */
    UetReceiveWindow(uint32_t startPsn, uint32_t mpRange);

    /**
     * \brief Account a data packet.
     * \param psn its PSN
     * \return what it is
     */
    Verdict Receive(uint32_t psn);

    /// \return CACK_PSN: the last PSN received in order (Start_PSN - 1 before any)
    uint32_t GetCackPsn() const
    {
        return m_cack;
    }

    /// \return the SACK base PSN, CACK_PSN + 1
    uint32_t GetSackBase() const
    {
        return UetPdsHeader::PsnAdd(m_cack, 1);
    }

    /// \return the SACK bitmap: bit i set if PSN GetSackBase() + i arrived (i < 64)
    uint64_t GetSackBitmap() const;

    /// \return true if a PSN beyond CACK_PSN arrived (there is a hole)
    bool HasHole() const
    {
        return m_beyond > 0;
    }

    /// \return PSNs received beyond CACK_PSN (the out-of-order count)
    uint32_t GetOutOfOrderCount() const
    {
        return m_beyond;
    }

    /// \return the window, PSNs
    uint32_t GetMpRange() const
    {
        return m_range;
    }

  private:
    /// \return the bit of \p psn (offset from CACK_PSN + 1, < m_range)
    bool Test(uint32_t offset) const;
    /// Set the bit of offset \p offset.
    void Set(uint32_t offset);

    uint32_t m_cack;              //!< CACK_PSN
    uint32_t m_range;             //!< MP_RANGE
    uint32_t m_beyond{0};         //!< PSNs received beyond CACK_PSN
    uint32_t m_head{0};           //!< ring index of PSN CACK_PSN + 1
    std::vector<uint64_t> m_bits; //!< ring of m_range bits, rounded up to whole words
};

/**
 * \ingroup ai-fabric-uet
 * \brief An ACK generation counter (UEC 1.0 PDS ACK coalescing): ACK_Gen_Trigger bytes,
 *        each packet counting at least ACK_Gen_Min_Pkt_Add.
 */
class UetAckCoalescer
{
  public:
    /**
     * \param trigger ACK_Gen_Trigger, bytes (>= 1; spec default 16384)
     * \param minPktAdd ACK_Gen_Min_Pkt_Add, bytes (spec default 1024)
     */
    UetAckCoalescer(uint32_t trigger, uint32_t minPktAdd);

    /**
     * \brief Count a packet.
     * \param bytes its length
     * \param immediate it asks for an ACK now (first packet, AR, RETX, SYN, CE, a hole)
     * \return true if an ACK is due now (the counter restarts)
     */
    bool OnPacket(uint32_t bytes, bool immediate);

    /// \return true if packets arrived since the last ACK (an ACK timer has work)
    bool HasPending() const
    {
        return m_count > 0;
    }

    /// An ACK was sent for another reason (a timer): the counter restarts.
    void Reset()
    {
        m_count = 0;
    }

  private:
    uint32_t m_trigger;  //!< ACK_Gen_Trigger
    uint32_t m_minAdd;   //!< ACK_Gen_Min_Pkt_Add
    uint32_t m_count{0}; //!< bytes since the last ACK
};

/**
 * \ingroup ai-fabric-uet
 * \brief The sender side of a reliable PDC's PSN space: the packets outstanding between
 *        CACK_PSN + 1 and the next PSN, what each carried, when it was sent, how often, and
 *        which the receiver has selectively acknowledged.
 *
 * The sender may not send beyond CACK_PSN + MP_RANGE (UEC 1.0 PDS MP_RANGE): CanSend() says
 * so. Each outstanding PSN keeps a record (the caller's cookie, first and last send time,
 * retransmissions, SACKed) in a ring of MP_RANGE entries: memory is bounded by the window.
 */
class UetSendWindow
{
  public:
    /// One outstanding packet.
    struct Record
    {
        uint64_t cookie{0}; //!< what the packet carries (the caller's id)
        Time firstSent;     //!< first transmission
        Time lastSent;      //!< last transmission
        uint32_t retx{0};   //!< retransmissions
        uint32_t bytes{0};  //!< payload bytes it carries (for GetInflightBytes)
        uint16_t ev{0};     //!< EV index of its last transmission (UetEvSelector)
        bool sacked{false}; //!< selectively acknowledged
        bool lost{false};   //!< marked for retransmission (NACK, RTO, inferred loss)
    };

    /**
     * \param startPsn Start_PSN
     * \param mpRange window, PSNs (1..2^20; aborts otherwise)
     */
    UetSendWindow(uint32_t startPsn, uint32_t mpRange);

    /// \return true if the next PSN is inside the window
    bool CanSend() const
    {
        return m_outstanding < m_range;
    }

    /**
     * \brief Assign the next PSN to a new packet.
     * \param cookie the caller's id for what it carries
     * \param now send time
     * \param bytes payload bytes it carries (counted in GetInflightBytes())
     * \return its PSN (aborts if !CanSend())
     */
    uint32_t SendNew(uint64_t cookie, Time now, uint32_t bytes = 0);

    /**
     * \return payload bytes in flight: sent (first time or again) and neither acknowledged
     *         nor marked lost (what a window-based congestion control counts)
     */
    uint64_t GetInflightBytes() const
    {
        return m_inflightBytes;
    }

    /// \return the next new PSN
    uint32_t GetNextPsn() const
    {
        return m_next;
    }

    /// \return the oldest unacknowledged PSN (CACK_PSN + 1)
    uint32_t GetUnackedPsn() const
    {
        return m_una;
    }

    /// \return packets outstanding (sent, not cumulatively acknowledged)
    uint32_t GetOutstanding() const
    {
        return m_outstanding;
    }

    /**
     * \param psn an outstanding PSN (aborts otherwise)
     * \return its record
     */
    Record& Get(uint32_t psn);

    /// \return true if \p psn is outstanding
    bool IsOutstanding(uint32_t psn) const;

    /**
     * \brief Apply an ACK: everything up to CACK_PSN is acknowledged; with a SACK bitmap, the
     *        PSNs whose bits are set too.
     * \param cackPsn the ACK's CACK_PSN (older than GetUnackedPsn() - 1: nothing new)
     * \param sackBase the bitmap's base PSN (ignored if \p bitmap is 0)
     * \param bitmap SACK bitmap (bit i = PSN sackBase + i)
     * \param[out] acked cookies of the packets newly acknowledged (cumulative or SACK), in
     *             PSN order, with their records
     * \return number of PSNs newly acknowledged
     */
    uint32_t OnAck(uint32_t cackPsn,
                   uint32_t sackBase,
                   uint64_t bitmap,
                   std::vector<std::pair<uint32_t, Record>>* acked);

    /**
     * \brief Mark PSNs lost that the receiver has provably skipped: not SACKed while at
     *        least \p threshold later PSNs were (inferred loss, for fabrics without trimming).
     *        A retransmitted PSN counts only the SACKed PSNs sent after its retransmission
     *        (as RACK does: earlier ones say nothing about the new copy), so one loss is
     *        resent once, not once per ACK.
     * \param threshold the out-of-order count that declares a loss (>= 1)
     * \param sentBefore only packets last sent before this time can be declared lost (a
     *        time gate against reordering: Time::Max() = no gate)
     * \param[out] marked if not null, the PSNs newly marked lost are appended
     * \return PSNs newly marked lost
     */
    uint32_t InferLosses(uint32_t threshold,
                         Time sentBefore = Time::Max(),
                         std::vector<uint32_t>* marked = nullptr);

    /**
     * \brief Mark one PSN lost (a NACK, or its RTO).
     * \param psn an outstanding, not SACKed PSN (else nothing happens)
     * \return true if it was newly marked
     */
    bool MarkLost(uint32_t psn);

    /**
     * \brief The oldest outstanding PSN marked lost, to retransmit.
     * \param[out] psn its PSN
     * \return false if none
     */
    bool NextLost(uint32_t* psn) const;

    /// \return true if an outstanding PSN is marked lost (O(1))
    bool HasLost() const
    {
        return m_lostCount > 0;
    }

    /// \return outstanding PSNs marked lost, waiting for retransmission
    uint32_t GetLostCount() const
    {
        return m_lostCount;
    }

    /// \return payload bytes of the PSNs marked lost
    uint64_t GetLostBytes() const
    {
        return m_lostBytes;
    }

    /**
     * \brief Retransmit a lost PSN: clears its mark, counts the retransmission.
     * \param psn the PSN (outstanding and lost; aborts otherwise)
     * \param now send time
     * \return its record
     */
    Record& Retransmit(uint32_t psn, Time now);

    /**
     * \brief The outstanding, not SACKed, not lost PSN sent longest ago (for the RTO).
     * \param[out] psn its PSN
     * \return false if none
     */
    bool OldestInFlight(uint32_t* psn) const;

  private:
    /// \return SACKed PSNs after the \p k-th outstanding one sent after its last transmission
    uint32_t SackedAfter(uint32_t k) const;

    /// \return the ring slot of an outstanding PSN
    uint32_t Slot(uint32_t psn) const
    {
        return (m_headSlot + static_cast<uint32_t>(UetPdsHeader::PsnDiff(psn, m_una))) % m_range;
    }

    uint32_t m_range;            //!< MP_RANGE
    uint32_t m_una;              //!< oldest unacknowledged PSN
    uint32_t m_next;             //!< next new PSN
    uint32_t m_outstanding{0};   //!< m_next - m_una
    uint32_t m_headSlot{0};      //!< slot of m_una
    uint32_t m_lostCount{0};     //!< outstanding PSNs marked lost
    uint64_t m_lostBytes{0};     //!< their payload bytes
    uint64_t m_inflightBytes{0}; //!< see GetInflightBytes()
    std::vector<Record> m_ring;  //!< records, MP_RANGE slots
};

} // namespace ns3

#endif /* UET_PSN_WINDOW_H */
