/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: NCCL's double-binary-tree AllReduce.
 */
#ifndef DOUBLE_BINARY_TREE_ALGORITHM_H
#define DOUBLE_BINARY_TREE_ALGORITHM_H

#include "collective-algorithm.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief Double-binary-tree AllReduce (NCCL 2.4+; Sanders, Speck and Traeff, "Two-tree
 *        algorithms for full bandwidth broadcast, reduction and scan", Parallel Computing
 *        2009): two complementary binary trees across servers, each reducing and then
 *        broadcasting half of the data, and a chain inside every server.
 *
 * Tree shape over the m servers (positions 0..m-1): position 0 is the root and has one child;
 * every other interval of positions is rooted at the position with the most trailing zero
 * bits, so odd positions are leaves. The second tree maps server i to position m-1-i when m
 * is even (mirror) and to (i+1) mod m when m is odd (shift), so that (almost) every interior
 * server of one tree is a leaf of the other and both trees together load every link evenly.
 * Without locations every rank is its own server.
 *
 * Per channel c and tree t the data part is S/(2C); the head of each server is its rank at
 * position c mod g (ranks sorted by local index) for both trees, so tree edges join ranks of
 * equal position (one rail when every server holds the same local indices) and a NIC carries
 * both trees of its channels: a server interior in one tree (two children) is a leaf of the
 * other, which balances the NIC's load (with one tree per NIC, an interior server's NIC
 * carries three times a leaf's). The chain visits
 * the server's other ranks from the head on. Up phase: chain tail -> ... -> head, each head
 * sends to its tree parent once its chain and its children have delivered; down phase from
 * the root: head -> tree children and head -> chain. Parts are cut into ChunkSize chunks that
 * pipeline through both phases. Step numbers: 0 chain up, 1 tree up, 2 tree down,
 * 3 chain down.
 */
class DoubleBinaryTreeAlgorithm : public CollectiveAlgorithm
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    bool Supports(CollectiveOp op) const override;

    /**
     * \brief The parent of every position in the tree over \p m positions.
     * \param m number of positions (>= 1)
     * \return parent position per position; COLLECTIVE_NONE for the root (position 0)
     */
    static std::vector<uint32_t> TreeParents(uint32_t m);
    /**
     * \brief The server at a tree position.
     * \param tree 0 or 1
     * \param m number of servers
     * \param position a position < m
     * \return the server index
     */
    static uint32_t ServerAt(uint32_t tree, uint32_t m, uint32_t position);

  protected:
    uint64_t DoBuild(const CollectiveRequest& request, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* DOUBLE_BINARY_TREE_ALGORITHM_H */
