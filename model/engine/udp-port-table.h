/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a small table keyed by UDP destination port.
 */
#ifndef UDP_PORT_TABLE_H
#define UDP_PORT_TABLE_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief What to do with a packet, by its UDP destination port: the NIC core's transports
 *        (FabricNic), a switch's entropy parsers (SwitchEntropyParserTable). A fabric carries
 *        one or two transports, so the lookup is a scan of a few entries kept together.
 * \tparam T the value: a pointer or a function pointer (T{} means "none")
 */
template <typename T>
class UdpPortTable
{
  public:
    /**
     * \param port a UDP destination port
     * \return its value, or T{} if it has none
     */
    T Find(uint16_t port) const
    {
        for (const auto& e : m_entries)
        {
            if (e.first == port)
            {
                return e.second;
            }
        }
        return T{};
    }

    /**
     * \brief Set (or replace) the value of a port.
     * \param port the port
     * \param value its value
     * \return true if the port had a value already (replaced)
     */
    bool Set(uint16_t port, T value)
    {
        for (auto& e : m_entries)
        {
            if (e.first == port)
            {
                e.second = value;
                return true;
            }
        }
        m_entries.emplace_back(port, value);
        return false;
    }

    /**
     * \brief Remove the value of a port.
     * \param port the port
     * \return true if it had one
     */
    bool Remove(uint16_t port)
    {
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        {
            if (it->first == port)
            {
                m_entries.erase(it);
                return true;
            }
        }
        return false;
    }

    /// \return number of ports with a value
    uint32_t GetN() const
    {
        return static_cast<uint32_t>(m_entries.size());
    }

    /**
     * \brief Call \p f(port, value) for every entry, in registration order.
     * \param f a callable taking (uint16_t, const T&)
     */
    template <typename F>
    void ForEach(F f) const
    {
        for (const auto& e : m_entries)
        {
            f(e.first, e.second);
        }
    }

    /// Remove every entry.
    void Clear()
    {
        m_entries.clear();
    }

  private:
    std::vector<std::pair<uint16_t, T>> m_entries; //!< (port, value), in registration order
};

} // namespace ns3

#endif /* UDP_PORT_TABLE_H */
