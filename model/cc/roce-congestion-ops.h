/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: pluggable per-QP congestion control of the RoCEv2 NIC.
 */
#ifndef ROCE_CONGESTION_OPS_H
#define ROCE_CONGESTION_OPS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief Congestion control of one RoCEv2 queue pair (the reaction point), shaped like ns-3's
 *        TcpCongestionOps.
 *
 * The NIC holds a prototype selected by its "CongestionControl" TypeId attribute and Fork()s
 * it for every QP, so each instance keeps the state of exactly one QP. The QP calls the hooks
 * as events happen and paces its packets at GetRate(); if GetWindow() is non-zero it also
 * limits the bytes in flight (sent and not acknowledged) to that window.
 *
 * Rates are in bits/s on the wire (the QP's pacing accounts Ethernet/IP/UDP/BTH overhead and
 * preamble/IFG), never above the line rate given to Init().
 */
class RoceCongestionOps : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceCongestionOps();
    ~RoceCongestionOps() override;

    /// \return the algorithm's name ("None", "DCQCN", ...)
    virtual std::string GetName() const = 0;
    /**
     * \brief Copy this prototype (attributes included) for a new QP.
     * \return a fresh instance in the initial state
     */
    virtual Ptr<RoceCongestionOps> Fork() const = 0;

    /**
     * \brief Start controlling a QP whose port runs at \p lineRate.
     * \param lineRate the port rate, > 0
     */
    virtual void Init(DataRate lineRate);

    /**
     * \brief An ACK (or NAK, which acknowledges what precedes it) advanced the QP.
     * \param ackedBytes payload bytes newly acknowledged
     * \param rtt round-trip sample: time since the newest acknowledged packet was sent, if
     *        WantsRttSamples() returns true; zero otherwise
     */
    virtual void OnAck(uint64_t ackedBytes, Time rtt);

    /**
     * \brief Whether OnAck() needs RTT samples. A QP then records the first-send time of
     *        every outstanding PSN (a per-packet cost that delay-based algorithms need and
     *        ECN-based ones such as DCQCN do not).
     * \return false by default; a delay-based algorithm overrides it to return true
     */
    virtual bool WantsRttSamples() const;
    /// A CNP arrived for this QP (the receiver saw ECN CE).
    virtual void OnCnp();
    /// A NAK (PSN sequence error) arrived: packets were lost.
    virtual void OnNak();
    /// The local ACK timeout expired and the QP goes back to its oldest unacknowledged PSN.
    virtual void OnTimeout();
    /**
     * \brief The QP put a packet on the wire.
     * \param bytes payload bytes of the packet
     */
    virtual void OnBytesSent(uint32_t bytes);

    /// \return the pacing rate (<= line rate)
    DataRate GetRate() const
    {
        return m_rate;
    }

    /// \return the in-flight window in bytes (0 = no window)
    uint64_t GetWindow() const
    {
        return m_window;
    }

    /// \return the line rate given to Init()
    DataRate GetLineRate() const
    {
        return m_lineRate;
    }

    /**
     * \brief Set the callback the QP uses to learn of rate changes (to re-pace at once).
     * \param cb called after every change of GetRate()
     */
    void SetRateChangeCallback(Callback<void> cb);

  protected:
    void DoDispose() override;
    /**
     * \brief Set the pacing rate, clamped to [1 bit/s, line rate].
     * \param rate new rate
     */
    void SetRate(DataRate rate);
    /**
     * \brief Set the window.
     * \param bytes window, 0 = none
     */
    void SetWindow(uint64_t bytes);

  private:
    DataRate m_lineRate;            //!< port rate
    TracedValue<DataRate> m_rate;   //!< pacing rate
    TracedValue<uint64_t> m_window; //!< in-flight window, bytes
    Callback<void> m_rateChanged;   //!< QP notification of rate changes
};

/**
 * \ingroup ai-fabric-cc
 * \brief No congestion control: every QP sends at line rate, only PFC controls the fabric
 *        (the configuration of Meta's 400G training clusters, Gangidi et al. SIGCOMM 2024).
 */
class RoceNoneCongestionOps : public RoceCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    Ptr<RoceCongestionOps> Fork() const override;
};

} // namespace ns3

#endif /* ROCE_CONGESTION_OPS_H */
