/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Ultra Ethernet entropy-value (EV) selection for packet spraying: which of a PDC's
 * EVs (paths) its next data packet takes, learning from the ACK/NACK/timeout feedback.
 */
#ifndef UET_EV_SELECTOR_H
#define UET_EV_SELECTOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Feedback a PDC gives its EV selector about a packet that used an EV (UET.md "Entropy
 *        (EV) and spraying": htsim's PathFeedback GOOD, ECN, NACK, TIMEOUT).
 */
enum class UetEvFeedback : uint8_t
{
    ACK_CLEAN = 0, //!< acknowledged without ECN CE (the path is good)
    ACK_ECN,       //!< acknowledged with the ECN CE echo (M flag): the path is congested
    NACK,          //!< NACKed (e.g. TRIMMED): the packet was cut or lost on the path
    TIMEOUT,       //!< its retransmission timer expired: the path may have failed
};

/// Number of UetEvFeedback kinds.
constexpr uint32_t UET_EV_FEEDBACK_KINDS = 4;

/**
 * \param f a feedback kind
 * \return its name ("ACK_CLEAN", "ACK_ECN", "NACK", "TIMEOUT"; "unknown" for another value)
 */
const char* UetEvFeedbackName(UetEvFeedback f);

/**
 * \ingroup ai-fabric-uet
 * \brief What an EV selector did (instrumentation, 88 B per instance; nothing per EV).
 */
struct UetEvSelectorCounters
{
    uint64_t picks{0};    //!< NextEv() calls
    uint64_t recycled{0}; //!< picks that reused an EV from a recycle buffer (reps, mixed)
    uint64_t explored{0}; //!< picks of a uniformly random EV (reps exploring)
    uint64_t skipped{0};  //!< penalised EVs passed over by a pick (bitmap, mixed)
    uint64_t forced{0};   //!< picks that had to take a penalised EV (bitmap: all penalised)
    uint64_t freezes{0};  //!< times the selector entered the freeze (reps)
    /// OnFeedback() calls taken into account, by UetEvFeedback.
    std::array<uint64_t, UET_EV_FEEDBACK_KINDS> feedback{};
    uint64_t ignored{0}; //!< feedback ignored: EV index >= Evs or unknown kind
};

/**
 * \ingroup ai-fabric-uet
 * \brief How a UET PDC chooses the entropy value (EV) of each data packet, i.e. its path: the
 *        EV is the UDP source port, which the switches hash (UET.md "Encapsulation").
 *
 * The UEC 1.0 specification leaves the choice to the implementation; the strategies here are
 * those of UEC's htsim (uec_mp.cpp: UecMpOblivious, UecMpBitmap, UecMpReps, UecMpMixed) and of
 * the REPS paper (Bonato et al., "REPS: Recycled Entropy Packet Spraying for Adaptive Load
 * Balancing and Failure Mitigation", arXiv 2407.21625): UetSingleEvSelector ("single"),
 * UetObliviousEvSelector ("oblivious"), UetBitmapEvSelector ("bitmap"), UetRepsEvSelector
 * ("reps"), UetMixedEvSelector ("mixed").
 *
 * A selector works on EV *indices* 0..Evs-1; the PDC maps an index to the UDP source port it
 * sends (htsim ORs per-connection random upper bits onto the index so that two connections
 * using the same index take different paths).
 *
 * Calling pattern: a NIC holds a prototype chosen by TypeId (CreateByName() maps the names),
 * Fork()s it for every PDC and Init()s the copy with the NIC's random stream (shared by all
 * PDCs of the NIC). The PDC then calls NextEv() for every data packet it sends, new or
 * retransmitted, and OnFeedback() with the EV index of the packet that an ACK, a NACK or an RTO
 * concerns. OnFeedback() may be called once per ACK (with the EV the ACK echoes, as htsim
 * does) or once per newly acknowledged packet; an EV index >= Evs (which a forged or stale
 * packet may carry) is counted and ignored. No method allocates after Init().
 *
 * Attribute errors abort where the value is set, naming the attribute, the value and the
 * range ("ns3::UetEvSelector::Evs=0 is out of range: valid range 1..65536").
 */
class UetEvSelector : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetEvSelector();
    ~UetEvSelector() override;

    /// The largest number of EVs (EV indices are 16 bits).
    static constexpr uint32_t MAX_EVS = 65536;

    /// \return the strategy's name: "single", "oblivious", "bitmap", "reps" or "mixed"
    virtual std::string GetName() const = 0;
    /**
     * \brief Copy this prototype for a new PDC: the attributes are copied, the state is fresh
     *        (no random stream, zero counters, no penalty or recycled EV); Init() it next.
     * \return the copy
     */
    virtual Ptr<UetEvSelector> Fork() const = 0;
    /**
     * \brief Bind to the NIC's random stream and start from a fresh state (calling it again
     *        restarts). Checks the attributes (aborting with the value and its range) and
     *        sizes the strategy's state; this is the only call that allocates. Attributes
     *        changed later take effect at the next Init().
     * \param rng the NIC's stream, shared by all PDCs of the NIC (aborts if null); the
     *        oblivious and bitmap strategies draw one value per round of their walk (Evs
     *        positions, skipped ones included; the first here), REPS one per explored EV,
     *        single none
     */
    virtual void Init(Ptr<UniformRandomVariable> rng);
    /**
     * \brief Choose the EV of the next data packet (new or retransmitted). Aborts if called
     *        before Init().
     * \return an EV index in [0, Evs)
     */
    virtual uint16_t NextEv() = 0;
    /**
     * \brief The EV of a retransmission. A packet resent after a loss should not explore: it
     *        may be the only thing the flow waits for. The default is NextEv(); REPS returns a
     *        known-good EV when it has one.
     * \return an EV index in 0..GetEvs()-1
     */
    virtual uint16_t NextRetransmitEv();
    /**
     * \brief Feedback about a packet that used EV index \p ev. Aborts if called before Init().
     * \param ev an index this selector returned; >= Evs (a forged packet) is counted in
     *        UetEvSelectorCounters::ignored and otherwise ignored, as is an unknown \p f
     * \param f what happened to the packet
     */
    virtual void OnFeedback(uint16_t ev, UetEvFeedback f) = 0;

    /// \return the number of EVs (attribute "Evs", 1..65536)
    uint32_t GetEvs() const;
    /// \return what the selector did since Init()
    const UetEvSelectorCounters& GetCounters() const;

    /**
     * \brief A prototype of the named strategy, with its attributes' defaults.
     * \param name "single", "oblivious", "bitmap", "reps" or "mixed" (aborts on another name,
     *        listing the valid ones)
     * \return the new selector (to be Fork()ed or Init()ed)
     */
    static Ptr<UetEvSelector> CreateByName(const std::string& name);

  protected:
    void DoDispose() override;
    /**
     * \brief Forget the random stream, the counters and (in derived classes) the strategy's
     *        state; Fork() calls it on the copy. Derived classes extend it.
     */
    virtual void ClearState();
    /**
     * \brief Count a pick; aborts if the selector has no random stream (before Init()).
     */
    void CountPick();
    /**
     * \brief Count a feedback call; aborts before Init().
     * \param ev the EV index given
     * \param f the feedback given
     * \return true if it is to be taken into account, false (counted as ignored) if \p ev is
     *         out of range or \p f unknown
     */
    bool AcceptFeedback(uint16_t ev, UetEvFeedback f);
    /// \return a uniformly random EV index in [0, Evs) (no draw when Evs is 1)
    uint16_t RandomEv();

    uint32_t m_evs;                     //!< number of EVs, 1..65536
    Ptr<UniformRandomVariable> m_rng;   //!< the NIC's stream (null before Init)
    UetEvSelectorCounters m_counters{}; //!< what it did
};

/**
 * \ingroup ai-fabric-uet
 * \brief The oblivious order over EV indices [0, n) used by the oblivious and bitmap
 *        strategies (htsim UecMpOblivious / UecMpBitmap): rounds of n positions; each round
 *        visits every index exactly once, position i of round r giving index
 *        i XOR k_r when n is a power of two (htsim's rule) and (i + k_r) mod n otherwise
 *        (htsim requires a power of two), with a key k_r drawn uniformly in [0, n) from the
 *        random stream when the round starts (no draw when n is 1). 8 B of state.
 */
class UetEvWalk
{
  public:
    /**
     * \brief Start round 0 at position 0, drawing its key.
     * \param n number of EVs, 1..65536
     * \param rng the random stream
     */
    void Reset(uint32_t n, UniformRandomVariable& rng);
    /**
     * \brief The index at the current position; advance (a new round draws a new key).
     * \param rng the random stream
     * \return an index in [0, n)
     */
    uint16_t Next(UniformRandomVariable& rng);

  private:
    /**
     * \brief Draw the key of a new round.
     * \param rng the random stream
     */
    void NewRound(UniformRandomVariable& rng);

    uint32_t m_n{1};   //!< number of EVs
    uint16_t m_pos{0}; //!< position in the round, 0..n-1 (n <= 65536 fits with wrap)
    uint16_t m_key{0}; //!< the round's XOR mask or offset, 0..n-1
};

/**
 * \ingroup ai-fabric-uet
 * \brief The small circular buffer of recycled EVs of REPS (Bonato et al. 2024, section 3;
 *        htsim CircularBufferREPS): the last `capacity` EVs whose ACK came back clean, each
 *        flagged "fresh" until reused.
 *
 * Push() writes at the head, overwriting the oldest entry when full; PopFresh() returns the
 * oldest fresh entry (FIFO) and marks it used; NextStored() cycles round robin through every
 * stored entry, fresh or used (the freeze reuses known-good EVs without consuming them).
 * Capacity at most 8 (the paper's and htsim's buffer): 16 B of EVs + 5 B of indices and flags.
 */
class UetEvRecycleBuffer
{
  public:
    /// The largest capacity.
    static constexpr uint32_t MAX_CAPACITY = 8;

    /**
     * \brief Empty the buffer.
     * \param capacity entries kept, 1..MAX_CAPACITY (aborts otherwise)
     */
    void Reset(uint32_t capacity);
    /**
     * \brief Store an EV as fresh, overwriting the oldest entry when full.
     * \param ev the EV index
     */
    void Push(uint16_t ev);
    /// \return true if a fresh (not yet reused) entry is stored
    bool HasFresh() const;
    /// \return fresh entries stored
    uint32_t GetFreshCount() const;
    /// \return entries stored, fresh or used (at most the capacity)
    uint32_t GetCount() const;
    /// \return the capacity
    uint32_t GetCapacity() const;
    /**
     * \brief Take the oldest fresh entry (aborts if none: check HasFresh()).
     * \return its EV
     */
    uint16_t PopFresh();
    /**
     * \brief The next stored entry round robin (aborts if the buffer is empty); it is marked
     *        used but stays stored.
     * \return its EV
     */
    uint16_t NextStored();

  private:
    /// \return the slot of the oldest stored entry
    uint32_t OldestSlot() const;

    std::array<uint16_t, MAX_CAPACITY> m_ev{}; //!< stored EVs by slot
    uint8_t m_capacity{MAX_CAPACITY};          //!< slots in use, 1..8
    uint8_t m_head{0};                         //!< next slot written
    uint8_t m_count{0};                        //!< slots stored, 0..capacity
    uint8_t m_fresh{0};                        //!< bit s: slot s is fresh
    uint8_t m_cursor{0};                       //!< NextStored's position, 0..count-1
};

} // namespace ns3

#endif /* UET_EV_SELECTOR_H */
