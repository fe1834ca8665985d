/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: which nodes of a fabric stay connected (union-find).
 */
#ifndef FABRIC_UNION_FIND_H
#define FABRIC_UNION_FIND_H

#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Disjoint sets of the indices 0..n-1 (union-find with path halving), each set rooted
 *        at its lowest index, so that labelling them is independent of the order of unions:
 *        the connected components of a fabric's switches (FabricRouteComputer) and the units
 *        of a partition (FabricPartition).
 */
class FabricUnionFind
{
  public:
    /// \param n indices 0..n-1, each in a set of its own
    explicit FabricUnionFind(uint32_t n)
        : m_parent(n)
    {
        std::iota(m_parent.begin(), m_parent.end(), 0u);
    }

    /// \param x an index < n \return the lowest index of its set
    uint32_t Find(uint32_t x)
    {
        while (m_parent[x] != x)
        {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }

    /// Merge the sets of \p a and \p b. \param a an index < n \param b an index < n
    void Union(uint32_t a, uint32_t b)
    {
        const uint32_t ra = Find(a);
        const uint32_t rb = Find(b);
        if (ra != rb)
        {
            m_parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
        }
    }

    /**
     * \brief Number the sets 0, 1, ... in the order of their lowest index.
     * \param label set to each index's set number (size n)
     * \return the number of sets
     */
    uint32_t Label(std::vector<uint32_t>& label)
    {
        constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
        const auto n = static_cast<uint32_t>(m_parent.size());
        std::vector<uint32_t> ofRoot(n, NONE);
        label.resize(n);
        uint32_t sets = 0;
        for (uint32_t x = 0; x < n; ++x)
        {
            const uint32_t r = Find(x);
            if (ofRoot[r] == NONE)
            {
                ofRoot[r] = sets++;
            }
            label[x] = ofRoot[r];
        }
        return sets;
    }

  private:
    std::vector<uint32_t> m_parent; //!< parent of each index (a root is its own parent)
};

} // namespace ns3

#endif /* FABRIC_UNION_FIND_H */
