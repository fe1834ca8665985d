/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of the Ultra Ethernet SES headers (UetSesRequestHeader,
 * UetSesSmallRequestHeader, UetSesResponseHeader, UetSesResponseDataHeader).
 */
#include "fuzz-util.h"

#include "ns3/uet-ses-request-header.h"
#include "ns3/uet-ses-response-header.h"

#include <initializer_list>
#include <utility>

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

/**
 * \brief The round trip of an SES header, whose reserved bits are written as 0 and ignored when
 *        read: Deserialize consumes H::SIZE bytes, Serialize gives the input back with its
 *        reserved bits cleared, so does the raw Read/Write, and the canonical bytes round-trip
 *        exactly (a second object read from them serializes and prints the same).
 * \param h the header to fill
 * \param data the SES bytes
 * \param size their length (at least H::SIZE)
 * \param clear (offset, mask of the kept bits) of each byte with reserved bits
 * \return the canonical bytes (the input with its reserved bits cleared)
 */
template <class H>
std::vector<uint8_t>
CheckSesRoundTrip(H& h,
                  const uint8_t* data,
                  std::size_t size,
                  std::initializer_list<std::pair<unsigned, uint8_t>> clear)
{
    std::vector<uint8_t> wire(data, data + H::SIZE);
    for (const auto& c : clear)
    {
        wire[c.first] &= c.second;
    }
    const uint32_t consumed = DeserializeHeader(h, data, size);
    FUZZ_CHECK(consumed == H::SIZE,
               "Deserialize consumed " << consumed << " bytes, not " << H::SIZE);
    FUZZ_CHECK(h.GetSerializedSize() == H::SIZE, "GetSerializedSize() " << h.GetSerializedSize());
    const std::vector<uint8_t> again = SerializeHeader(h);
    FUZZ_CHECK(again == wire,
               "input " << Hex(std::vector<uint8_t>(data, data + H::SIZE)) << " serialized back as "
                        << Hex(again) << ", not " << Hex(wire));

    H raw;
    FUZZ_CHECK(raw.Read(data) == H::SIZE, "Read did not return " << H::SIZE);
    std::vector<uint8_t> written(H::SIZE);
    raw.Write(written.data());
    FUZZ_CHECK(written == wire, "raw Read/Write gave " << Hex(written));

    H h2;
    DeserializeHeader(h2, again.data(), again.size());
    FUZZ_CHECK(SerializeHeader(h2) == wire,
               "canonical bytes serialized as " << Hex(SerializeHeader(h2)));
    FUZZ_CHECK(Printed(h2) == Printed(h), "'" << Printed(h) << "' vs '" << Printed(h2) << "'");
    return wire;
}

/**
 * \brief Check that bytes written by a fast-path WriteFields() are the canonical bytes.
 * \param got what WriteFields() wrote
 * \param want the canonical bytes
 * \param what the helper's name
 */
void
CheckFastPath(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const char* what)
{
    FUZZ_CHECK(got == want, what << " wrote " << Hex(got) << ", not " << Hex(want));
}

/**
 * \brief Set the fields shared by the request headers from another request header's getters.
 * \param r the header to set
 * \param h the header to copy
 */
void
SetCommon(UetSesRequestBase& r, const UetSesRequestBase& h)
{
    r.SetOpcode(h.GetOpcode());
    r.SetVersion(h.GetVersion());
    r.SetFlags(h.GetFlags());
    r.SetRiGeneration(h.GetRiGeneration());
    r.SetJobId(h.GetJobId());
    r.SetPidOnFep(h.GetPidOnFep());
    r.SetResourceIndex(h.GetResourceIndex());
}

/**
 * \brief Set the fields shared by the response headers from another response header's getters.
 * \param r the header to set
 * \param h the header to copy
 */
void
SetCommon(UetSesResponseBase& r, const UetSesResponseBase& h)
{
    r.SetList(h.GetList());
    r.SetOpcode(h.GetOpcode());
    r.SetVersion(h.GetVersion());
    r.SetReturnCode(h.GetReturnCode());
    r.SetMessageId(h.GetMessageId());
    r.SetJobId(h.GetJobId());
}

/**
 * \brief Standard request (44 B; reserved: octet 0 bits 7..6, octets 8 and 10 bits 7..4).
 * \param data the SES bytes
 * \param size their length
 */
void
FuzzStandardRequest(const uint8_t* data, std::size_t size)
{
    UetSesRequestHeader h;
    const std::vector<uint8_t> wire =
        CheckSesRoundTrip(h, data, size, {{0, 0x3F}, {8, 0x0F}, {10, 0x0F}});
    std::vector<uint8_t> fast(wire.size());
    UetSesRequestHeader::WriteFields(fast.data(),
                                     h.GetOpcode(),
                                     h.GetFlags(),
                                     h.GetMessageId(),
                                     h.GetRiGeneration(),
                                     h.GetJobId(),
                                     h.GetPidOnFep(),
                                     h.GetResourceIndex(),
                                     h.GetBufferOffset(),
                                     h.GetInitiator(),
                                     h.GetMemoryKey(),
                                     h.GetHeaderData(),
                                     h.GetRequestLength(),
                                     h.GetVersion());
    CheckFastPath(fast, wire, "UetSesRequestHeader::WriteFields");
    FUZZ_CHECK(h.GetSom() == ((h.GetFlags() & UetSesHeader::FLAG_SOM) != 0) &&
                   h.GetEom() == ((h.GetFlags() & UetSesHeader::FLAG_EOM) != 0),
               "SOM/EOM disagree with the flags");
    FUZZ_CHECK(h.GetPayloadLength() <= 0x3FFF, "payload_length " << h.GetPayloadLength());
    FUZZ_CHECK((UetSesRequestHeader::PackLengthOffset(h.GetPayloadLength(), h.GetMessageOffset()) |
                (h.GetHeaderData() & ~0x3FFFFFFFFFFFULL)) == h.GetHeaderData(),
               "length/offset view of header_data 0x" << std::hex << h.GetHeaderData());

    UetSesRequestHeader r;
    SetCommon(r, h);
    r.SetMessageId(h.GetMessageId());
    r.SetBufferOffset(h.GetBufferOffset());
    r.SetInitiator(h.GetInitiator());
    r.SetMemoryKey(h.GetMemoryKey());
    r.SetHeaderData(h.GetHeaderData());
    r.SetRequestLength(h.GetRequestLength());
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

/**
 * \brief Small request (20 B; reserved: octet 0 bits 7..6, octet 2 bits 7..6, octets 8 and 10
 *        bits 7..4).
 * \param data the SES bytes
 * \param size their length
 */
void
FuzzSmallRequest(const uint8_t* data, std::size_t size)
{
    UetSesSmallRequestHeader h;
    const std::vector<uint8_t> wire =
        CheckSesRoundTrip(h, data, size, {{0, 0x3F}, {2, 0x3F}, {8, 0x0F}, {10, 0x0F}});
    std::vector<uint8_t> fast(wire.size());
    UetSesSmallRequestHeader::WriteFields(fast.data(),
                                          h.GetOpcode(),
                                          h.GetFlags(),
                                          h.GetRequestLength(),
                                          h.GetRiGeneration(),
                                          h.GetJobId(),
                                          h.GetPidOnFep(),
                                          h.GetResourceIndex(),
                                          h.GetBufferOffset(),
                                          h.GetVersion());
    CheckFastPath(fast, wire, "UetSesSmallRequestHeader::WriteFields");

    UetSesSmallRequestHeader r;
    SetCommon(r, h);
    r.SetRequestLength(h.GetRequestLength());
    r.SetBufferOffset(h.GetBufferOffset());
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

/**
 * \brief Response (12 B; no reserved bits).
 * \param data the SES bytes
 * \param size their length
 */
void
FuzzResponse(const uint8_t* data, std::size_t size)
{
    UetSesResponseHeader h;
    const std::vector<uint8_t> wire = CheckSesRoundTrip(h, data, size, {});
    std::vector<uint8_t> fast(wire.size());
    UetSesResponseHeader::WriteFields(fast.data(),
                                      h.GetOpcode(),
                                      h.GetReturnCode(),
                                      h.GetMessageId(),
                                      h.GetRiGeneration(),
                                      h.GetJobId(),
                                      h.GetModifiedLength(),
                                      h.GetList(),
                                      h.GetVersion());
    CheckFastPath(fast, wire, "UetSesResponseHeader::WriteFields");
    FUZZ_CHECK(UetSesHeader::ResponseOpcodeName(h.GetOpcode()) != nullptr &&
                   UetSesHeader::ReturnCodeName(h.GetReturnCode()) != nullptr,
               "null name");

    UetSesResponseHeader r;
    SetCommon(r, h);
    r.SetRiGeneration(h.GetRiGeneration());
    r.SetModifiedLength(h.GetModifiedLength());
    CheckFastPath(SerializeHeader(r), wire, "the setters");
}

/**
 * \brief Response with data (20 B; reserved: octet 4, octet 10 bits 7..6). WriteFields() always
 *        writes the opcode RESPONSE_W_DATA; the object keeps whatever opcode it read.
 * \param data the SES bytes
 * \param size their length
 */
void
FuzzResponseData(const uint8_t* data, std::size_t size)
{
    UetSesResponseDataHeader h;
    std::vector<uint8_t> wire = CheckSesRoundTrip(h, data, size, {{4, 0x00}, {10, 0x3F}});

    UetSesResponseDataHeader r;
    SetCommon(r, h);
    r.SetReadRequestMessageId(h.GetReadRequestMessageId());
    r.SetPayloadLength(h.GetPayloadLength());
    r.SetModifiedLength(h.GetModifiedLength());
    r.SetMessageOffset(h.GetMessageOffset());
    CheckFastPath(SerializeHeader(r), wire, "the setters");

    std::vector<uint8_t> fast(wire.size());
    UetSesResponseDataHeader::WriteFields(fast.data(),
                                          h.GetReturnCode(),
                                          h.GetMessageId(),
                                          h.GetJobId(),
                                          h.GetReadRequestMessageId(),
                                          h.GetPayloadLength(),
                                          h.GetModifiedLength(),
                                          h.GetMessageOffset(),
                                          h.GetList(),
                                          h.GetVersion());
    wire[0] = static_cast<uint8_t>((wire[0] & 0xC0) | UetSesHeader::RESPONSE_W_DATA);
    CheckFastPath(fast, wire, "UetSesResponseDataHeader::WriteFields");
}

} // namespace

/**
 * \brief Read a UET SES header from the input: its first byte's low nibble is the PDS next-header
 *        code that announces it (NH_REQUEST_STD, NH_REQUEST_SMALL, NH_RESPONSE,
 *        NH_RESPONSE_DATA; other codes, unmodelled, are ignored), the rest is the SES header.
 *        SesHeaderSize() of the code is the header's size; Deserialize then Serialize gives the
 *        bytes back with the reserved bits (written as 0, ignored when read) cleared, as do the
 *        raw Read/Write; the static WriteFields() called with the getters' values writes the
 *        same bytes (for a response with data, with the opcode RESPONSE_W_DATA it always
 *        writes), and the setters accept every deserialized value and rebuild the same bytes.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
    {
        return 0;
    }
    const uint8_t nh = data[0] & 0xF;
    const uint32_t n = UetPdsHeader::SesHeaderSize(nh);
    FUZZ_CHECK(UetPdsHeader::NextHeaderName(nh) != nullptr, "null next-header name");
    FUZZ_CHECK(n <= UetSesHeader::MAX_SIZE, "SES size " << n);
    data++;
    size--;
    if (size < n)
    {
        return 0; // truncated
    }
    FUZZ_CHECK(UetSesHeader::OpcodeName(size > 0 ? data[0] & 0x3F : 0) != nullptr,
               "null opcode name");
    switch (nh)
    {
    case UetPdsHeader::NH_REQUEST_STD:
        FUZZ_CHECK(n == UetSesRequestHeader::SIZE, "standard request size " << n);
        FuzzStandardRequest(data, size);
        break;
    case UetPdsHeader::NH_REQUEST_SMALL:
        FUZZ_CHECK(n == UetSesSmallRequestHeader::SIZE, "small request size " << n);
        FuzzSmallRequest(data, size);
        break;
    case UetPdsHeader::NH_RESPONSE:
        FUZZ_CHECK(n == UetSesResponseHeader::SIZE, "response size " << n);
        FuzzResponse(data, size);
        break;
    case UetPdsHeader::NH_RESPONSE_DATA:
        FUZZ_CHECK(n == UetSesResponseDataHeader::SIZE, "response-with-data size " << n);
        FuzzResponseData(data, size);
        break;
    default:
        break; // no SES header, or one the model does not decode
    }
    return 0;
}
