/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: DCQCN reaction point.
 */
#ifndef DCQCN_CONGESTION_OPS_H
#define DCQCN_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/event-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief DCQCN reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA
 *        Deployments", SIGCOMM 2015; NVIDIA ConnectX firmware parameters).
 *
 * Per QP it keeps the current rate Rc (the pacing rate), the target rate Rt and the
 * congestion estimate alpha.
 *
 * - On a CNP: alpha <- (1 - G) alpha + G. If at least RateReduceMonitorPeriod passed since
 *   the last decrease: Rt <- Rc (see the clamp options), then
 *   Rc <- max(MinRate, Rc x max(1 - alpha / Gd, MinDecreaseFactor)). On the very first CNP a
 *   non-zero RateOnFirstCnp is used as the new Rc instead. The timer and byte stage counters
 *   and the byte counter are reset and the increase timer restarts.
 * - Without CNPs alpha decays: alpha <- (1 - G) alpha once per AlphaUpdatePeriod since the
 *   last CNP. The decay is applied in closed form when alpha is next needed, so a QP costs no
 *   events while nothing happens (GetAlpha() returns the decayed value).
 * - Rate increase events come from a timer (every RateIncreaseTimer, stage counter T) and a
 *   byte counter (every ByteCounter bytes sent, stage counter BC; ByteCounter 0 switches it
 *   off and BC then reads as T, so T alone selects the stage), both only while Rc is
 *   below the line rate. A QP that sends nothing for a whole timer period stops its timer;
 *   the stages it missed are replayed in order when it next sends, so the rate evolves as
 *   with a free-running timer but idle QPs cost no events. At each event: fast recovery if max(T,
 * BC) < F; hyper increase Rt <- Rt + i x RateHai with i = min(T, BC) - F if min(T, BC) > F;
 * additive increase Rt <- Rt + RateAi otherwise; then Rc <- (Rt + Rc) / 2. Rt and Rc never exceed
 * the line rate; at line rate the timer stops.
 *
 * ECN echo on ACKs (RoceNic CongestionNotification=AckEcho, the HPCC paper's DCQCN
 * baseline): an echoing ACK acts as a CNP at most once per EcnEchoInterval (OnAck).
 *
 * Clamp options: with ClampTargetRate (the paper) every decrease sets Rt <- Rc. Without it,
 * Rt <- Rc only if a timer-driven increase happened since the previous decrease when
 * ClampTargetRateAfterTimeInc is set (firmware CLAMP_TGT_RATE_AFTER_TIME_INC), and never
 * otherwise (except on the first decrease), so back-to-back CNPs keep the higher target.
 *
 * Defaults are the ConnectX firmware values; SetPresetDefaults("paper") or ("firmware")
 * sets every attribute default through Config::SetDefault. Firmware units that are not
 * plain SI are converted as follows (assumptions, documented in the module doc):
 * RPG_GD = 11 with alpha in 1/1024 units means Gd = 2048 / 1024 = 2; RPG_BYTE_RESET = 32767
 * is taken in 64-byte units (2 MiB; in bytes the byte counter would restore the rate every
 * 32 KB and DCQCN would leave the queue to PFC); DCE_TCP_G is taken as G = 1/256; RPG_TIME_RESET
 * and RATE_REDUCE_MONITOR_PERIOD are in microseconds.
 */
class DcqcnCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DcqcnCongestionOps();
    ~DcqcnCongestionOps() override;

    /**
     * \brief Set the defaults of every DCQCN attribute to a documented preset.
     * \param preset "paper" (Zhu et al. 2015, 40 Gb/s: G 1/256, K 55 us, T 55 us, B 10 MB,
     *        F 5, R_AI 40 Mb/s, R_HAI 400 Mb/s, and the notification point's CNP interval
     *        N = 50 us on RoceNic) or "firmware" (ConnectX defaults, CNP interval 4 us);
     *        aborts naming the value otherwise. The congestion point (WredEcnMarker Kmin/Kmax/
     *        Pmax) is the switch's and is not changed.
     */
    static void SetPresetDefaults(const std::string& preset);
    /**
     * \brief An example's --cc and --preset: refuse a --cc other than "dcqcn" or "none", a
     *        --preset given with --cc=none and a preset other than "firmware" or "paper"
     *        (input errors naming the flag and the valid values), then SetPresetDefaults(preset)
     *        for dcqcn.
     * \param cc the --cc value
     * \param preset the --preset value
     * \param presetGiven whether --preset was on the command line
     */
    static void ApplyExampleChoice(const std::string& cc,
                                   const std::string& preset,
                                   bool presetGiven);

    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    using FabricCongestionOps::Init;
    void Init(Ptr<FabricCcState> state) override;
    /**
     * \brief FabricCcEvent::CNP is the DCQCN rate decrease (OnCnp); other events do nothing.
     * \param event the event
     */
    void OnEvent(FabricCcEvent event) override;
    void OnBytesSent(uint32_t bytes) override;
    /**
     * \brief An ACK that echoes ECN CE (RoceNic CongestionNotification=AckEcho) acts as a CNP
     *        (OnCnp) if no echo did in the last EcnEchoInterval, the reaction-point twin of the
     *        notification point's CnpInterval (so AckEcho and Cnp modes decrease equally
     *        often); other ACKs do nothing.
     * \param sample the ACK
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /// A CNP arrived: the reaction point's decrease (see the class description).
    void OnCnp();

    /// \return alpha now (with the decay since the last CNP applied), in [0, 1]
    double GetAlpha() const;
    /// \return the target rate Rt (the state's target rate)
    DataRate GetTargetRate() const;
    /// \return the timer stage counter T
    uint32_t GetTimerStage() const;
    /// \return the byte stage counter BC
    uint32_t GetByteStage() const;

  protected:
    void DoDispose() override;

  private:
    /// One rate increase event (timer or byte counter).
    void Increase();
    /// The increase timer fired.
    void OnIncreaseTimer();
    /// One timer stage: T++ and an increase event.
    void TimerStage();
    /// Replay the timer stages missed while idle, then restart the timer.
    void CatchUp();
    /// (Re)start the increase timer if the rate is below line rate.
    void ArmIncreaseTimer();
    /// Rc as a double in bits/s.
    double CurrentBps() const;
    /// Validate attribute combinations (called from Init).
    void Validate() const;

    // attributes
    double m_g;                 //!< alpha gain G, (0, 1]
    Time m_alphaPeriod;         //!< alpha update period K
    double m_initialAlpha;      //!< alpha at start, [0, 1]
    DataRate m_rateOnFirstCnp;  //!< Rc after the first CNP (0 = decrease normally)
    Time m_reduceMonitorPeriod; //!< minimum time between decreases
    double m_minDecreaseFactor; //!< Rc never drops below this fraction per decrease
    double m_gd;                //!< decrease divisor: Rc x (1 - alpha / Gd)
    DataRate m_minRate;         //!< rate floor
    Time m_increaseTimer;       //!< T
    uint64_t m_byteCounter;     //!< B, bytes (0 = no byte counter)
    Time m_ecnEchoInterval;     //!< minimum time between echo-driven decreases
    uint32_t m_f;               //!< fast recovery threshold F
    DataRate m_rateAi;          //!< additive increase step
    DataRate m_rateHai;         //!< hyper increase step
    bool m_clampTargetRate;     //!< Rt <- Rc on every decrease
    bool m_clampAfterTimeInc;   //!< Rt <- Rc only after an increase

    // state
    double m_alpha;                     //!< alpha at m_alphaRef
    Time m_alphaRef;                    //!< time of the last alpha update
    TracedValue<double> m_alphaTrace;   //!< alpha at each CNP
    TracedValue<uint32_t> m_timerStage; //!< T
    TracedValue<uint32_t> m_byteStage;  //!< BC
    uint64_t m_bytesSinceStage;         //!< byte counter
    Time m_lastDecrease;                //!< time of the last decrease
    bool m_decreasedEver;               //!< a decrease happened
    bool m_cnpEver;                     //!< a CNP arrived
    bool m_increasedSinceDecrease;      //!< a timer increase happened since the last decrease
    EventId m_timer;                    //!< increase timer event
    Time m_timerDeadline;               //!< when the increase timer is due
    bool m_idle;                        //!< timer stopped because the QP sent nothing
    bool m_sentSinceTimer;              //!< bytes were sent since the last timer stage
    uint32_t m_lastSentBytes{0};        //!< payload of the last packet sent (pacing gap)
    bool m_echoEver{false};             //!< an ECN echo acted as a CNP
    Time m_lastEcho;                    //!< when it last did
};

/**
 * \ingroup ai-fabric-cc
 * \brief DCQCN notification point (Zhu et al. SIGCOMM 2015, section 3.2; RoCEv2 Annex A17.9):
 *        the receiver answers CE-marked data of a flow with a CNP, at most one per flow per
 *        CnpInterval (firmware MIN_TIME_BETWEEN_CNPS 4 us; the paper's 50 us).
 *
 * RoceNic's default "NotificationPoint"; forked per QP.
 */
class DcqcnNotificationPoint : public FabricCcReceiverOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DcqcnNotificationPoint();
    ~DcqcnNotificationPoint() override;

    Ptr<FabricCcReceiverOps> Fork() const override;
    /**
     * \brief A data packet arrived (the RoCE QP reports CE-marked ones).
     * \param sample the packet
     * \return FABRIC_CC_SEND_CNP if it is CE-marked and no CNP was sent in the last
     *         CnpInterval, FABRIC_CC_NO_FEEDBACK otherwise
     */
    uint8_t OnData(const FabricCcRxSample& sample) override;
    /// \return the CnpInterval attribute
    Time GetCnpInterval() const;

  private:
    Time m_cnpInterval; //!< minimum time between CNPs
    bool m_cnpEver;     //!< a CNP was sent
    Time m_lastCnp;     //!< when the last CNP was sent
};

} // namespace ns3

#endif /* DCQCN_CONGESTION_OPS_H */
