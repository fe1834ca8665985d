/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of RoceBthHeader::Deserialize (RoCEv2 Base Transport Header).
 */
#include "fuzz-util.h"

#include "ns3/roce-bth-header.h"
#include "ns3/roce-entropy-parser.h"
#include "ns3/switch-flow-key.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Deserialize a BTH from the input: the 12 bytes round-trip exactly (through Deserialize
 *        and through the NIC's raw Read/Write), the setters accept every deserialized value and
 *        rebuild the same bytes, and the switches' RoCE entropy parser reads the same DestQP.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RoceBthHeader::SIZE)
    {
        return 0; // the NIC checks the datagram length before reading the BTH
    }
    RoceBthHeader h;
    const std::vector<uint8_t> wire = CheckExactRoundTrip(h, data, size);

    RoceBthHeader raw;
    raw.Read(data);
    std::vector<uint8_t> written(RoceBthHeader::SIZE);
    raw.Write(written.data());
    FUZZ_CHECK(written == wire, "raw Read/Write gave " << Hex(written));

    RoceBthHeader rebuilt;
    rebuilt.SetOpcode(h.GetOpcode());
    rebuilt.SetSolicitedEvent(h.GetSolicitedEvent());
    rebuilt.SetMigReq(h.GetMigReq());
    rebuilt.SetPadCnt(h.GetPadCnt());
    rebuilt.SetTVer(h.GetTVer());
    rebuilt.SetPKey(h.GetPKey());
    rebuilt.SetResv8(h.GetResv8());
    rebuilt.SetDestQp(h.GetDestQp());
    rebuilt.SetAckReq(h.GetAckReq());
    rebuilt.SetResv7(h.GetResv7());
    rebuilt.SetPsn(h.GetPsn());
    FUZZ_CHECK(SerializeHeader(rebuilt) == wire, "rebuilt as " << Hex(SerializeHeader(rebuilt)));
    FUZZ_CHECK(h.GetFecn() == ((wire[4] & RoceBthHeader::FECN_BIT) != 0), "FECN");
    FUZZ_CHECK(h.GetBecn() == ((wire[4] & RoceBthHeader::BECN_BIT) != 0), "BECN");

    // WriteFields (the NIC's data path) agrees with the setters on the fields it takes.
    uint8_t fields[RoceBthHeader::SIZE];
    RoceBthHeader::WriteFields(fields,
                               h.GetOpcode(),
                               h.GetPadCnt(),
                               h.GetDestQp(),
                               h.GetAckReq(),
                               h.GetPsn(),
                               h.GetBecn());
    RoceBthHeader fromFields;
    fromFields.Read(fields);
    FUZZ_CHECK(fromFields.GetOpcode() == h.GetOpcode() && fromFields.GetPadCnt() == h.GetPadCnt() &&
                   fromFields.GetDestQp() == h.GetDestQp() &&
                   fromFields.GetAckReq() == h.GetAckReq() && fromFields.GetPsn() == h.GetPsn() &&
                   fromFields.GetBecn() == h.GetBecn() && !fromFields.GetFecn() &&
                   fromFields.GetPKey() == RoceBthHeader::DEFAULT_PKEY,
               "WriteFields gave " << Printed(fromFields) << " for " << Printed(h));

    // The switches' ECMP entropy of a RoCEv2 packet is its DestQP.
    SwitchFlowKey key;
    RoceEntropyParser::Parse(data, static_cast<uint32_t>(size), key);
    FUZZ_CHECK(key.entropyBytes == 3 && key.entropy == h.GetDestQp(),
               "entropy " << key.entropy << " DestQP " << h.GetDestQp());
    FUZZ_CHECK(RoceBthHeader::OpcodeName(h.GetOpcode()) != nullptr, "null opcode name");
    return 0;
}
