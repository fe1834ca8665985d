/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of the Ultra Ethernet PDS headers (UetPdsRequestHeader,
 * UetPdsRudiHeader, UetPdsUudHeader, UetPdsAckHeader, UetPdsNackHeader, UetPdsControlHeader).
 */
#include "fuzz-util.h"

#include "ns3/uet-pds-ack-header.h"
#include "ns3/uet-pds-control-header.h"
#include "ns3/uet-pds-nack-header.h"
#include "ns3/uet-pds-request-header.h"
#include "ns3/uet-pds-rudi-header.h"

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

/**
 * \brief The byte-exact round trip of a PDS header (every PDS header keeps all its bits,
 *        reserved flags and octets included): Deserialize consumes HeaderSize(type) bytes,
 *        GetSerializedSize() agrees, Serialize gives the input back, the raw Read/Write fast
 *        path gives the same bytes, and a second object read from them prints the same.
 * \param h the header to fill (its class decodes the input's type)
 * \param data the input
 * \param size its length (at least HeaderSize(PeekType(data)))
 * \return the header's bytes
 */
template <class H>
std::vector<uint8_t>
CheckPdsRoundTrip(H& h, const uint8_t* data, std::size_t size)
{
    const uint32_t n = UetPdsHeader::HeaderSize(UetPdsHeader::PeekType(data));
    const std::vector<uint8_t> wire(data, data + n);
    const uint32_t consumed = DeserializeHeader(h, data, size);
    FUZZ_CHECK(consumed == n, "Deserialize consumed " << consumed << " bytes, not " << n);
    FUZZ_CHECK(h.GetSerializedSize() == n, "GetSerializedSize() " << h.GetSerializedSize());
    FUZZ_CHECK(h.GetType() == UetPdsHeader::PeekType(data), "type " << unsigned(h.GetType()));
    FUZZ_CHECK(h.GetNextHeader() == UetPdsHeader::PeekNextHeader(data),
               "next header " << unsigned(h.GetNextHeader()));
    FUZZ_CHECK(h.GetFlags() == UetPdsHeader::PeekFlags(data), "flags " << unsigned(h.GetFlags()));
    const std::vector<uint8_t> again = SerializeHeader(h);
    FUZZ_CHECK(again == wire, "input " << Hex(wire) << " serialized back as " << Hex(again));

    H raw;
    const uint32_t read = raw.Read(data);
    FUZZ_CHECK(read == n, "Read returned " << read << ", not " << n);
    std::vector<uint8_t> written(n);
    raw.Write(written.data());
    FUZZ_CHECK(written == wire, "raw Read/Write gave " << Hex(written));

    H h2;
    DeserializeHeader(h2, again.data(), again.size());
    FUZZ_CHECK(Printed(h2) == Printed(h), "'" << Printed(h) << "' vs '" << Printed(h2) << "'");
    return wire;
}

/**
 * \brief Check that bytes written by a fast-path WriteFields()-style helper are some expected
 *        bytes.
 * \param got what the helper wrote
 * \param want what it should have written
 * \param what the helper's name
 */
void
CheckFastPath(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const char* what)
{
    FUZZ_CHECK(got == want, what << " wrote " << Hex(got) << ", not " << Hex(want));
}

/**
 * \param type a PDS type
 * \return how many of the header classes decode it (each modelled type: exactly one)
 */
int
DecodingClasses(uint8_t type)
{
    return int(UetPdsRequestHeader::IsRequestType(type)) + int(UetPdsAckHeader::IsAckType(type)) +
           int(type == UetPdsHeader::RUDI_REQ || type == UetPdsHeader::RUDI_RESP) +
           int(type == UetPdsHeader::UUD_REQ) + int(type == UetPdsHeader::NACK) +
           int(type == UetPdsHeader::CTRL);
}

/**
 * \brief Request (RUD/ROD, with or without CC state): round trip, WriteFields() from the getters,
 *        and the setters rebuild the bytes.
 * \param data the input
 * \param size its length
 */
void
FuzzRequest(const uint8_t* data, std::size_t size)
{
    UetPdsRequestHeader h;
    const std::vector<uint8_t> wire = CheckPdsRoundTrip(h, data, size);
    std::vector<uint8_t> fast(wire.size());
    const uint32_t n = UetPdsRequestHeader::WriteFields(fast.data(),
                                                        h.GetType(),
                                                        h.GetNextHeader(),
                                                        h.GetFlags(),
                                                        h.GetClearPsnOffset(),
                                                        h.GetPsn(),
                                                        h.GetSpdcid(),
                                                        h.GetDpdcid(),
                                                        h.GetCccId(),
                                                        h.GetCreditTarget());
    FUZZ_CHECK(n == wire.size(), "WriteFields returned " << n);
    CheckFastPath(fast, wire, "UetPdsRequestHeader::WriteFields");
    FUZZ_CHECK(UetPdsRequestHeader::PeekPsn(data) == h.GetPsn() &&
                   UetPdsRequestHeader::PeekSpdcid(data) == h.GetSpdcid() &&
                   UetPdsRequestHeader::PeekDpdcid(data) == h.GetDpdcid(),
               "Peek* disagree with the getters");
    FUZZ_CHECK(UetPdsRequestHeader::SynField(h.GetPdcInfo(), h.GetPsnOffset()) == h.GetDpdcid(),
               "pdc_info " << unsigned(h.GetPdcInfo()) << " psn_offset " << h.GetPsnOffset());
    FUZZ_CHECK(h.GetStartPsn() == h.GetPsn() - h.GetPsnOffset(), "Start_PSN");
    FUZZ_CHECK(h.GetClearPsn() == h.GetPsn() + uint32_t(int32_t(h.GetClearPsnOffset())),
               "Clear_PSN");

    UetPdsRequestHeader r;
    r.SetType(h.GetType());
    r.SetNextHeader(h.GetNextHeader());
    r.SetFlags(h.GetFlags());
    r.SetClearPsnOffset(h.GetClearPsnOffset());
    r.SetPsn(h.GetPsn());
    r.SetSpdcid(h.GetSpdcid());
    r.SetPdcInfo(h.GetPdcInfo());
    r.SetPsnOffset(h.GetPsnOffset());
    r.SetCccId(h.GetCccId());
    r.SetCreditTarget(h.GetCreditTarget());
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

/**
 * \brief RUDI request / response: round trip; WriteFields() writes the same bytes with the
 *        reserved octets 2-3 as 0; the setters rebuild the bytes.
 * \param data the input
 * \param size its length
 */
void
FuzzRudi(const uint8_t* data, std::size_t size)
{
    UetPdsRudiHeader h;
    std::vector<uint8_t> wire = CheckPdsRoundTrip(h, data, size);
    FUZZ_CHECK(h.GetReserved() == ((wire[2] << 8) | wire[3]), "reserved " << h.GetReserved());

    UetPdsRudiHeader r;
    r.SetType(h.GetType());
    r.SetNextHeader(h.GetNextHeader());
    r.SetFlags(h.GetFlags());
    r.SetReserved(h.GetReserved());
    r.SetPktId(h.GetPktId());
    CheckFastPath(SerializeHeader(r), wire, "the setters");

    std::vector<uint8_t> fast(wire.size());
    UetPdsRudiHeader::WriteFields(fast.data(),
                                  h.GetType(),
                                  h.GetNextHeader(),
                                  h.GetFlags(),
                                  h.GetPktId());
    wire[2] = 0;
    wire[3] = 0;
    CheckFastPath(fast, wire, "UetPdsRudiHeader::WriteFields");
}

/**
 * \brief UUD request: round trip (reserved flags and octets kept); WriteFields() writes the
 *        same prologue with flags and reserved octets 0.
 * \param data the input
 * \param size its length
 */
void
FuzzUud(const uint8_t* data, std::size_t size)
{
    UetPdsUudHeader h;
    std::vector<uint8_t> wire = CheckPdsRoundTrip(h, data, size);

    UetPdsUudHeader r;
    r.SetNextHeader(h.GetNextHeader());
    r.SetFlags(h.GetFlags());
    r.SetReserved(h.GetReserved());
    CheckFastPath(SerializeHeader(r), wire, "the setters");

    std::vector<uint8_t> fast(wire.size());
    UetPdsUudHeader::WriteFields(fast.data(), h.GetNextHeader());
    wire[1] &= 0x80; // flags 0
    wire[2] = 0;
    wire[3] = 0;
    CheckFastPath(fast, wire, "UetPdsUudHeader::WriteFields");
}

/**
 * \brief ACK / ACK_CC / ACK_CCX: round trip, WriteAck / WriteAckCc / WriteAckCcx from the
 *        getters, the NSCC and credit views of the CC state repack to it, and the setters
 *        rebuild the bytes.
 * \param data the input
 * \param size its length
 */
void
FuzzAck(const uint8_t* data, std::size_t size)
{
    UetPdsAckHeader h;
    const std::vector<uint8_t> wire = CheckPdsRoundTrip(h, data, size);
    std::vector<uint8_t> fast(wire.size());
    uint32_t n = 0;
    switch (h.GetType())
    {
    case UetPdsHeader::ACK_CC:
        n = UetPdsAckHeader::WriteAckCc(fast.data(),
                                        h.GetNextHeader(),
                                        h.GetFlags(),
                                        h.GetAckPsnOffset(),
                                        h.GetCackPsn(),
                                        h.GetSpdcid(),
                                        h.GetDpdcid(),
                                        h.GetCcType(),
                                        h.GetMpr(),
                                        h.GetSackPsnOffset(),
                                        h.GetSackBitmap(),
                                        h.GetCcState(),
                                        h.GetCcFlags());
        FUZZ_CHECK(UetPdsAckHeader::PackNsccState(h.GetServiceTime(),
                                                  h.GetRc(),
                                                  h.GetRcvCwndPend(),
                                                  h.GetRcvdBytes(),
                                                  h.GetOooCount()) == h.GetCcState(),
                   "NSCC view of CC state 0x" << std::hex << h.GetCcState());
        FUZZ_CHECK((UetPdsAckHeader::PackCreditState(h.GetCredit(), h.GetOooCount()) |
                    (h.GetCcState() & 0xFFFFFF0000ULL)) == h.GetCcState(),
                   "credit view of CC state 0x" << std::hex << h.GetCcState());
        break;
    case UetPdsHeader::ACK_CCX:
        n = UetPdsAckHeader::WriteAckCcx(fast.data(),
                                         h.GetNextHeader(),
                                         h.GetFlags(),
                                         h.GetAckPsnOffset(),
                                         h.GetCackPsn(),
                                         h.GetSpdcid(),
                                         h.GetDpdcid(),
                                         h.GetCcType(),
                                         h.GetMpr(),
                                         h.GetSackPsnOffset(),
                                         h.GetSackBitmap(),
                                         h.GetCcxState(),
                                         h.GetCcFlags());
        break;
    default:
        n = UetPdsAckHeader::WriteAck(fast.data(),
                                      h.GetNextHeader(),
                                      h.GetFlags(),
                                      h.GetAckPsnOffset(),
                                      h.GetCackPsn(),
                                      h.GetSpdcid(),
                                      h.GetDpdcid());
        break;
    }
    FUZZ_CHECK(n == wire.size(), "ACK fast path returned " << n);
    CheckFastPath(fast, wire, "UetPdsAckHeader::WriteAck*");
    FUZZ_CHECK(UetPdsAckHeader::PeekCackPsn(data) == h.GetCackPsn(), "PeekCackPsn");
    FUZZ_CHECK(h.GetProbeOpaque() == uint16_t(h.GetAckPsnOffset()), "probe opaque");
    FUZZ_CHECK(h.GetReq() == ((h.GetFlags() & UetPdsHeader::FLAG_ACK_REQ_MASK) >> 1), "REQ");

    UetPdsAckHeader r;
    r.SetType(h.GetType());
    r.SetNextHeader(h.GetNextHeader());
    r.SetFlags(h.GetFlags());
    r.SetAckPsnOffset(h.GetAckPsnOffset());
    r.SetCackPsn(h.GetCackPsn());
    r.SetSpdcid(h.GetSpdcid());
    r.SetDpdcid(h.GetDpdcid());
    if (h.GetType() != UetPdsHeader::ACK)
    {
        r.SetCcType(h.GetCcType());
        r.SetCcFlags(h.GetCcFlags());
        r.SetMpr(h.GetMpr());
        r.SetSackPsnOffset(h.GetSackPsnOffset());
        r.SetSackBitmap(h.GetSackBitmap());
        r.SetCcState(h.GetCcState());
        r.SetCcxState(h.GetCcxState());
    }
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

/**
 * \brief NACK: round trip, WriteFields() from the getters, the setters rebuild the bytes, and
 *        the code's name is never null.
 * \param data the input
 * \param size its length
 */
void
FuzzNack(const uint8_t* data, std::size_t size)
{
    UetPdsNackHeader h;
    const std::vector<uint8_t> wire = CheckPdsRoundTrip(h, data, size);
    std::vector<uint8_t> fast(wire.size());
    UetPdsNackHeader::WriteFields(fast.data(),
                                  h.GetNextHeader(),
                                  h.GetFlags(),
                                  h.GetNackCode(),
                                  h.GetVendorCode(),
                                  h.GetNackPsn(),
                                  h.GetSpdcid(),
                                  h.GetDpdcid(),
                                  h.GetPayload());
    CheckFastPath(fast, wire, "UetPdsNackHeader::WriteFields");
    FUZZ_CHECK(UetPdsNackHeader::PeekNackCode(data) == h.GetNackCode() &&
                   UetPdsNackHeader::PeekNackPsn(data) == h.GetNackPsn(),
               "Peek* disagree with the getters");
    FUZZ_CHECK(UetPdsHeader::NackCodeName(h.GetNackCode()) != nullptr, "null NACK code name");

    UetPdsNackHeader r;
    r.SetNextHeader(h.GetNextHeader());
    r.SetFlags(h.GetFlags());
    r.SetNackCode(h.GetNackCode());
    r.SetVendorCode(h.GetVendorCode());
    r.SetNackPsn(h.GetNackPsn());
    r.SetSpdcid(h.GetSpdcid());
    r.SetDpdcid(h.GetDpdcid());
    r.SetPayload(h.GetPayload());
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

/**
 * \brief Control packet: round trip, WriteFields() from the getters, and the setters rebuild
 *        the bytes.
 * \param data the input
 * \param size its length
 */
void
FuzzControl(const uint8_t* data, std::size_t size)
{
    UetPdsControlHeader h;
    const std::vector<uint8_t> wire = CheckPdsRoundTrip(h, data, size);
    std::vector<uint8_t> fast(wire.size());
    UetPdsControlHeader::WriteFields(fast.data(),
                                     h.GetCtrlType(),
                                     h.GetFlags(),
                                     h.GetProbeOpaque(),
                                     h.GetPsn(),
                                     h.GetSpdcid(),
                                     h.GetDpdcid(),
                                     h.GetPayload());
    CheckFastPath(fast, wire, "UetPdsControlHeader::WriteFields");
    FUZZ_CHECK(UetPdsHeader::CtrlTypeName(h.GetCtrlType()) != nullptr, "null control type name");

    UetPdsControlHeader r;
    r.SetCtrlType(h.GetCtrlType());
    r.SetFlags(h.GetFlags());
    r.SetProbeOpaque(h.GetProbeOpaque());
    r.SetPsn(h.GetPsn());
    r.SetSpdcid(h.GetSpdcid());
    r.SetPdcInfo(h.GetPdcInfo());
    r.SetPsnOffset(h.GetPsnOffset());
    r.SetPayload(h.GetPayload());
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

} // namespace

/**
 * \brief Read a UET PDS header from the input as a receiver does: dispatch on
 *        UetPdsHeader::PeekType() and HeaderSize(). A type the model does not decode (reserved,
 *        TSS, NACK_CCX, 15..31) has size 0 and is refused; every other type is decoded by
 *        exactly one class, whose header round-trips the input's bytes exactly (every PDS bit
 *        is kept, reserved ones included) through Deserialize/Serialize and the raw Read/Write,
 *        whose static fast-path writer called with the getters' values writes the same bytes
 *        (RUDI and UUD helpers write their reserved octets, and UUD its flags, as 0), and whose
 *        setters accept every deserialized value and rebuild the same bytes.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < UetPdsHeader::PROLOGUE_SIZE)
    {
        return 0;
    }
    const uint8_t type = UetPdsHeader::PeekType(data);
    const uint32_t n = UetPdsHeader::HeaderSize(type);
    FUZZ_CHECK(UetPdsHeader::TypeName(type) != nullptr, "null type name");
    FUZZ_CHECK(UetPdsHeader::NextHeaderName(UetPdsHeader::PeekNextHeader(data)) != nullptr,
               "null next-header name");
    FUZZ_CHECK(DecodingClasses(type) == (n == 0 ? 0 : 1),
               "type " << unsigned(type) << " of size " << n << " is decoded by "
                       << DecodingClasses(type) << " classes");
    FUZZ_CHECK(n == 0 || (n >= 4 && n <= UetPdsHeader::MAX_SIZE), "size " << n);
    if (n == 0 || size < n)
    {
        return 0; // refused: not a modelled type, or a truncated header
    }
    switch (type)
    {
    case UetPdsHeader::RUD_REQ:
    case UetPdsHeader::ROD_REQ:
    case UetPdsHeader::RUD_CC_REQ:
    case UetPdsHeader::ROD_CC_REQ:
        FuzzRequest(data, size);
        break;
    case UetPdsHeader::RUDI_REQ:
    case UetPdsHeader::RUDI_RESP:
        FuzzRudi(data, size);
        break;
    case UetPdsHeader::UUD_REQ:
        FuzzUud(data, size);
        break;
    case UetPdsHeader::ACK:
    case UetPdsHeader::ACK_CC:
    case UetPdsHeader::ACK_CCX:
        FuzzAck(data, size);
        break;
    case UetPdsHeader::NACK:
        FuzzNack(data, size);
        break;
    case UetPdsHeader::CTRL:
        FuzzControl(data, size);
        break;
    default:
        FUZZ_CHECK(false, "type " << unsigned(type) << " has size " << n << " but no class");
    }
    return 0;
}
