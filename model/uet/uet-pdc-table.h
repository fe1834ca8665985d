/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the PDC table of a UET fabric endpoint: its PDCID pool and its PDCs, found by
 * PDCID, by initiator key and by target key.
 */
#ifndef UET_PDC_TABLE_H
#define UET_PDC_TABLE_H

#include "uet-pdc-id-pool.h"
#include "uet-pdc.h"
#include "uet-types.h"

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <unordered_map>
#include <vector>

namespace ns3
{

class UetNic;

/**
 * \ingroup ai-fabric-uet
 * \brief The PDCs of one fabric endpoint (FEP, a UetNic port): its finite PDCID pool, the PDC
 *        object of every PDCID used, and the indexes that find an open PDC: an initiator's by
 *        {mode, JobID, destination FEP}, a target's by {source FEP, the initiator's PDCID}.
 *
 * The table decides nothing (UetNic does: it allocates PDCIDs, queues operations when none is
 * free, opens PDCs through the table and tells it when they close). A PDC object is created
 * the first time its PDCID is used and kept after it closes (UET.md "PDC lifecycle": the next
 * PDC with that PDCID reuses it). An index entry names the PDCID of the open PDC for its key;
 * a PDC closing removes its entry only if the entry still names it. The table also spaces the
 * FEP's Start_PSNs (NextStartPsn).
 *
 * Memory: one pointer per PDCID ever used, one index entry per open PDC.
 */
class UetPdcTable
{
  public:
    /// An empty table without a pool: a port of the NIC core that is not (yet) a UET FEP.
    UetPdcTable() = default;

    /**
     * \brief Make the table a FEP's: create its PDCID pool.
     * \param nic the NIC that owns the PDCs
     * \param port the FEP's port index on the NIC
     * \param general general PDCIDs (UetNic PdcPoolSize)
     * \param reserved reserved PDCIDs (UetNic ReservedPdcs); general + reserved <= 65535
     */
    void Init(UetNic* nic, uint32_t port, uint32_t general, uint32_t reserved);

    /// \return true once Init was called (the port is a UET FEP)
    bool IsInitialized() const
    {
        return m_pool != nullptr;
    }

    /**
     * \brief The key of an initiator PDC (also of a RUDI/UUD flow or source).
     * \param mode delivery mode
     * \param jobId JobID, 24 bits
     * \param fepBits the other FEP's IPv4 address, host order
     * \return the key
     */
    static uint64_t InitiatorKey(UetDeliveryMode mode, uint32_t jobId, uint32_t fepBits)
    {
        return (uint64_t(mode) << 56) | (uint64_t(jobId & 0xFFFFFF) << 32) | fepBits;
    }

    /**
     * \brief The key of a target PDC.
     * \param srcBits the initiator FEP's IPv4 address, host order
     * \param spdcid the initiator's PDCID
     * \return the key
     */
    static uint64_t TargetKey(uint32_t srcBits, uint16_t spdcid)
    {
        return (uint64_t(srcBits) << 16) | spdcid;
    }

    /**
     * \param id a PDCID
     * \return the PDC object of that PDCID (open or not), or null if the PDCID was never used
     */
    UetPdc* Get(uint16_t id) const
    {
        return id < m_pdcs.size() ? m_pdcs[id].get() : nullptr;
    }

    /**
     * \brief The open PDC a received packet names (every packet of a PDC but the SYNs).
     * \param id the packet's DPDCID
     * \param srcBits the packet's source FEP, host order
     * \return the PDC, or null if \p id is 0, unused or closed, or its peer is not \p srcBits
     */
    UetPdc* Lookup(uint16_t id, uint32_t srcBits) const
    {
        if (id == 0 || id >= m_pdcs.size() || !m_pdcs[id])
        {
            return nullptr;
        }
        UetPdc* pdc = m_pdcs[id].get();
        if (pdc->GetState() == UetPdc::CLOSED || pdc->GetPeer().Get() != srcBits)
        {
            return nullptr;
        }
        return pdc;
    }

    /**
     * \param mode delivery mode
     * \param jobId JobID
     * \param dstBits the target FEP, host order
     * \return the initiator PDC indexed for them, or null
     */
    UetPdc* FindInitiator(UetDeliveryMode mode, uint32_t jobId, uint32_t dstBits) const;
    /**
     * \param srcBits the initiator FEP, host order
     * \param spdcid the initiator's PDCID
     * \return the target PDC indexed for them, or null
     */
    UetPdc* FindTarget(uint32_t srcBits, uint16_t spdcid) const;

    /**
     * \brief Take a PDCID from the pool.
     * \param reserved take a reserved one if the pool has reserved PDCIDs (a SYN asking for
     *        one); else a general one
     * \return the PDCID, or 0 if none is free
     */
    uint16_t Allocate(bool reserved);

    /**
     * \brief Open an initiator PDC on an allocated PDCID and index it.
     * \param id the PDCID (from Allocate)
     * \param mode RUD or ROD
     * \param jobId JobID
     * \param dst target FEP
     * \param startPsn Start_PSN (NextStartPsn)
     * \param ev its entropy value (UDP source port)
     * \return the PDC
     */
    UetPdc* OpenInitiator(uint16_t id,
                          UetDeliveryMode mode,
                          uint32_t jobId,
                          Ipv4Address dst,
                          uint32_t startPsn,
                          uint16_t ev);
    /**
     * \brief Open a target PDC on an allocated PDCID (a SYN arrived) and index it.
     * \param id the PDCID (from Allocate)
     * \param mode RUD or ROD
     * \param src initiator FEP
     * \param spdcid the initiator's PDCID
     * \param startPsn Start_PSN (the SYN's PSN - psn_offset)
     * \param ev its entropy value (the SYN's UDP source port)
     * \return the PDC
     */
    UetPdc* OpenTarget(uint16_t id,
                       UetDeliveryMode mode,
                       Ipv4Address src,
                       uint16_t spdcid,
                       uint32_t startPsn,
                       uint16_t ev);

    /**
     * \brief Remove a PDC's index entry if it still names it (an initiator starts closing: new
     *        operations open a new PDC).
     * \param pdc the PDC
     */
    void Forget(const UetPdc& pdc);
    /**
     * \brief A PDC was freed: Forget it and return its PDCID to the pool.
     * \param pdc the PDC
     */
    void Release(const UetPdc& pdc);

    /**
     * \brief Space a new Start_PSN from the FEP's last one (UET.md: at least 2^16 apart, so a
     *        stale packet of a PDC that had the same PDCID cannot fall into the new window).
     * \param drawn a random 32-bit Start_PSN
     * \return \p drawn, or the last Start_PSN + 2^17 if \p drawn is within 2^16 of it
     */
    uint32_t NextStartPsn(uint32_t drawn);

    /// Ask every open target PDC to close (Request-Close; the pool ran out, UetPdc::RequestClose).
    void RequestCloseTargets();

    /**
     * \brief One line per open PDC with pending operations (UetPdc::Describe).
     * \param os the stream
     */
    void DescribePending(std::ostream& os) const;

  private:
    /// \return the PDC object of \p id, created if it was never used
    UetPdc* Slot(uint16_t id);

    UetNic* m_nic{nullptr};                             //!< the NIC that owns the PDCs
    uint32_t m_port{0};                                 //!< the FEP's port index
    std::unique_ptr<UetPdcIdPool> m_pool;               //!< PDCIDs (null before Init)
    std::vector<std::unique_ptr<UetPdc>> m_pdcs;        //!< by PDCID (created lazily)
    std::unordered_map<uint64_t, uint16_t> m_initiator; //!< {mode, JobID, dst} -> PDCID
    std::unordered_map<uint64_t, uint16_t> m_target;    //!< {src, SPDCID} -> PDCID
    uint32_t m_lastStartPsn{0};                         //!< the last Start_PSN
    bool m_started{false};                              //!< m_lastStartPsn is valid
};

} // namespace ns3

#endif /* UET_PDC_TABLE_H */
