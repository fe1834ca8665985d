/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the implicit 4-ary min-heap of the event queues.
 */
#ifndef QUATERNARY_HEAP_H
#define QUATERNARY_HEAP_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Primitives of an implicit 4-ary min-heap in a std::vector (earliest at [0]), for any
 *        entry type and order: QuaternaryHeapScheduler and DelayClassScheduler's overflow heap
 *        (ns-3's (timestamp, uid) order), CausalOrderScheduler (its causal keys).
 *
 * A 4-ary heap has half the levels of a binary one, and a node's four children share a cache
 * line or two: fewer misses per pop on the large queues of a fabric simulation.
 *
 * \tparam T the entry (copyable)
 * \tparam Before a stateless functor: Before()(a, b) is true if \p a comes before \p b (a
 *         strict weak order)
 */
template <typename T, typename Before>
struct QuaternaryHeap
{
    /// Children per node.
    static constexpr std::size_t ARITY = 4;

    /**
     * \brief Move the entry at \p i up to its place.
     * \param heap the heap
     * \param i index of the entry, < heap.size()
     */
    static void SiftUp(std::vector<T>& heap, std::size_t i)
    {
        T moving = heap[i];
        while (i > 0)
        {
            std::size_t parent = (i - 1) / ARITY;
            if (!Before()(moving, heap[parent]))
            {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = moving;
    }

    /**
     * \brief Move the entry at \p i down to its place.
     * \param heap the heap
     * \param i index of the entry, < heap.size()
     */
    static void SiftDown(std::vector<T>& heap, std::size_t i)
    {
        const std::size_t n = heap.size();
        T moving = heap[i];
        while (true)
        {
            std::size_t first = i * ARITY + 1;
            if (first >= n)
            {
                break;
            }
            std::size_t best = MinChild(heap, first, n);
            if (!Before()(heap[best], moving))
            {
                break;
            }
            heap[i] = heap[best];
            i = best;
        }
        heap[i] = moving;
    }

    /**
     * \brief Remove the earliest entry (Floyd's variant: walk the hole from the root to a leaf
     *        along the smallest children, then sift the former last entry up from there; the
     *        last entry is usually among the latest, so it belongs near the bottom: about one
     *        comparison per level instead of two).
     * \param heap the heap, not empty
     */
    static void PopTop(std::vector<T>& heap)
    {
        T last = heap.back();
        heap.pop_back();
        const std::size_t n = heap.size();
        if (n == 0)
        {
            return;
        }
        std::size_t i = 0;
        for (std::size_t first = 1; first < n; first = i * ARITY + 1)
        {
            std::size_t best = MinChild(heap, first, n);
            heap[i] = heap[best];
            i = best;
        }
        heap[i] = last;
        SiftUp(heap, i);
    }

    /**
     * \brief Turn any vector into a heap (Floyd's bottom-up construction, O(n)).
     * \param heap the entries
     */
    static void Make(std::vector<T>& heap)
    {
        const std::size_t n = heap.size();
        if (n > 1)
        {
            for (std::size_t i = (n - 2) / ARITY + 1; i-- > 0;)
            {
                SiftDown(heap, i);
            }
        }
    }

    /**
     * \brief The earliest of the (at most four) children starting at \p first.
     * \param heap the heap
     * \param first index of the first child
     * \param n heap size, > first
     * \return its index
     */
    static std::size_t MinChild(const std::vector<T>& heap, std::size_t first, std::size_t n)
    {
        if (first + ARITY <= n)
        {
            // Full family: a branch-free tournament (keys are random: branches mispredict).
            std::size_t a = first + Before()(heap[first + 1], heap[first]);
            std::size_t b = first + 2 + Before()(heap[first + 3], heap[first + 2]);
            return Before()(heap[b], heap[a]) ? b : a;
        }
        std::size_t best = first;
        for (std::size_t c = first + 1; c < n; ++c)
        {
            best = Before()(heap[c], heap[best]) ? c : best;
        }
        return best;
    }
};

} // namespace ns3

#endif /* QUATERNARY_HEAP_H */
