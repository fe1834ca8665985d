/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: branch-free lookup in the small caches of the per-packet path.
 */
#ifndef FABRIC_MATCH_H
#define FABRIC_MATCH_H

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief The first of four cache keys equal to \p key, found with one branch: the four
 *        comparisons form a bit mask and its lowest set bit is the answer. The matching entry
 *        of a small per-packet cache changes from packet to packet (frame sizes of a port,
 *        delay classes of the scheduler), which defeats one branch per entry (ai-fabric
 *        benchmark, doc "Benchmarks").
 * \tparam T the key type (equality-comparable)
 * \param keys the cache's four keys
 * \param key the key looked up
 * \return the index 0..3 of the first equal key, or -1 if none is equal
 */
template <typename T>
inline int
FirstMatchOf4(const std::array<T, 4>& keys, const T& key)
{
    uint32_t hit = uint32_t(keys[0] == key) | uint32_t(keys[1] == key) << 1 |
                   uint32_t(keys[2] == key) << 2 | uint32_t(keys[3] == key) << 3;
    return hit != 0 ? __builtin_ctz(hit) : -1;
}

} // namespace ns3

#endif /* FABRIC_MATCH_H */
