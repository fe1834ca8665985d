/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the finite pools of PDC identifiers of a UET FEP.
 */
#ifndef UET_PDC_ID_POOL_H
#define UET_PDC_ID_POOL_H

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The PDC identifiers of one FEP: a general pool and a reserved pool of 16-bit PDCIDs
 *        (0 is reserved and never allocated), finite as in a NIC (UEC 1.0 PDS: running out
 *        is answered with NACK NO_PDC_AVAIL and the initiator retries later; a SYN with
 *        pdc_info bit 3 asks for a reserved PDC).
 *
 * Ids are 1..general for the general pool and general+1..general+reserved for the reserved
 * one. Released ids are reused oldest-first, so a closed PDC's id is not handed out again
 * while its last packets may still be in flight. Memory is the pool size (at most 65535).
 */
class UetPdcIdPool
{
  public:
    /**
     * \param general PDCIDs in the general pool (>= 1)
     * \param reserved PDCIDs in the reserved pool (general + reserved <= 65535; aborts
     *        otherwise, naming the values)
     */
    UetPdcIdPool(uint32_t general, uint32_t reserved);

    /**
     * \brief Allocate a PDCID.
     * \param reserved from the reserved pool (else the general one)
     * \return the id, or 0 if that pool is exhausted (NO_PDC_AVAIL)
     */
    uint16_t Allocate(bool reserved = false);
    /**
     * \brief Return a PDCID to its pool.
     * \param id an allocated id (aborts if it is 0, out of range or not allocated)
     */
    void Release(uint16_t id);
    /// \return true if \p id is allocated
    bool IsAllocated(uint16_t id) const;
    /// \return ids allocated from both pools
    uint32_t GetNAllocated() const;
    /// \return the pool sizes (general, reserved)
    uint32_t GetGeneralSize() const;
    /// \return the reserved pool size
    uint32_t GetReservedSize() const;

  private:
    uint32_t m_general;                  //!< general pool size
    uint32_t m_reserved;                 //!< reserved pool size
    std::deque<uint16_t> m_freeGeneral;  //!< free general ids, oldest released first
    std::deque<uint16_t> m_freeReserved; //!< free reserved ids
    std::vector<bool> m_allocated;       //!< by id
    uint32_t m_nAllocated{0};            //!< allocated ids
};

} // namespace ns3

#endif /* UET_PDC_ID_POOL_H */
