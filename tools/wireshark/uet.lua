-- SPDX-License-Identifier: GPL-2.0-only
--
-- ai-fabric: Wireshark / tshark dissector for Ultra Ethernet Transport (UET) on UDP port 4793.
--
-- Decodes the PDS header (RUD/ROD request with or without CC state, RUDI request/response, UUD
-- request, ACK, ACK_CC, ACK_CCX, NACK, control packets) and the SES header it announces
-- (standard and small request, response, response with data), with named fields (uet.pds.*,
-- uet.ses.*) and expert info on unknown values and truncated headers. The layouts are those of
-- ai-fabric's model/uet/ headers (UEC specification 1.0.1 as summarised in UET.md, cross-checked
-- with Wireshark's own packet-uet.c of Wireshark 4.6, which Debian's Wireshark 4.0 lacks).
--
-- Usage:  tshark -X lua_script:tools/wireshark/uet.lua -r capture.pcap
--         wireshark -X lua_script:tools/wireshark/uet.lua capture.pcap
-- or copy it into your personal Lua plugins folder. See tools/wireshark/README.md.

local uet = Proto("uet", "Ultra Ethernet Transport")

local UDP_PORT = 4793

local pds_types = {
    [0] = "RESERVED", [1] = "TSS", [2] = "RUD_REQ", [3] = "ROD_REQ", [4] = "RUDI_REQ",
    [5] = "RUDI_RESP", [6] = "UUD_REQ", [7] = "ACK", [8] = "ACK_CC", [9] = "ACK_CCX",
    [10] = "NACK", [11] = "CTRL", [12] = "NACK_CCX", [13] = "RUD_CC_REQ", [14] = "ROD_CC_REQ",
}
-- PDS header size by type (types the dissector decodes).
local pds_sizes = {
    [2] = 12, [3] = 12, [4] = 8, [5] = 8, [6] = 4, [7] = 12, [8] = 32, [9] = 40, [10] = 16,
    [11] = 16, [13] = 16, [14] = 16,
}
local next_headers = {
    [0] = "NONE", [1] = "REQUEST_SMALL", [2] = "REQUEST_MEDIUM", [3] = "REQUEST_STD",
    [4] = "RESPONSE", [5] = "RESPONSE_DATA", [6] = "RESPONSE_DATA_SMALL",
}
local ses_sizes = { [1] = 20, [3] = 44, [4] = 12, [5] = 20 }
local ctl_types = {
    [0] = "NOOP", [1] = "ACK_REQ", [2] = "CLEAR", [3] = "CLEAR_REQ", [4] = "CLOSE",
    [5] = "CLOSE_REQ", [6] = "PROBE", [7] = "CREDIT", [8] = "CREDIT_REQ",
}
local nack_codes = {
    [0x01] = "TRIMMED", [0x02] = "TRIMMED_LASTHOP", [0x03] = "TRIMMED_ACK",
    [0x04] = "NO_PDC_AVAIL", [0x05] = "NO_CCC_AVAIL", [0x06] = "NO_BITMAP",
    [0x07] = "NO_PKT_BUFFER", [0x08] = "NO_GTD_DEL_AVAIL", [0x09] = "NO_SES_MSG_AVAIL",
    [0x0A] = "NO_RESOURCE", [0x0B] = "PSN_OOR_WINDOW", [0x0D] = "ROD_OOO",
    [0x0E] = "INV_DPDCID", [0x0F] = "PDC_HDR_MISMATCH", [0x10] = "CLOSING",
    [0x11] = "CLOSING_IN_ERR", [0x12] = "PKT_NOT_RCVD", [0x13] = "GTD_DEL_RESP_UNAVAIL",
    [0x14] = "ACK_WITH_DATA", [0x15] = "INVALID_SYN", [0x16] = "PDC_MODE_MISMATCH",
    [0x17] = "NEW_START_PSN", [0x18] = "RCVD_SES_PROCG", [0x19] = "UNEXP_EVENT",
    [0x1A] = "RCVR_INFER_LOSS", [0xFD] = "EXP_NACK_NORMAL", [0xFE] = "EXP_NACK_ERR",
    [0xFF] = "EXP_NACK_FATAL",
}
local cc_types = { [0] = "NSCC", [1] = "CREDIT" }
local ack_requests = { [0] = "none", [1] = "Clear", [2] = "Close", [3] = "reserved" }
local ses_opcodes = {
    [0x00] = "NO_OP", [0x01] = "WRITE", [0x02] = "READ", [0x03] = "ATOMIC",
    [0x04] = "FETCHING_ATOMIC", [0x05] = "SEND", [0x06] = "RENDEZVOUS_SEND",
    [0x07] = "DATAGRAM_SEND", [0x08] = "DEFERRABLE_SEND", [0x09] = "TAGGED_SEND",
    [0x0A] = "RENDEZVOUS_TSEND", [0x0B] = "DEFERRABLE_TSEND", [0x0C] = "DEFERRABLE_RTR",
    [0x0D] = "TSEND_ATOMIC", [0x0E] = "TSEND_FETCH_ATOMIC", [0x0F] = "MSG_ERROR",
}
local rsp_opcodes = {
    [0] = "DEFAULT_RESPONSE", [1] = "RESPONSE", [2] = "RESPONSE_W_DATA", [3] = "NO_RESPONSE",
}
local return_codes = {
    [0x00] = "NULL", [0x01] = "OK", [0x02] = "BAD_GENERATION", [0x03] = "DISABLED",
    [0x04] = "DISABLED_GEN", [0x05] = "NO_MATCH", [0x06] = "UNSUPPORTED_OP",
    [0x07] = "UNSUPPORTED_SIZE", [0x08] = "AT_INVALID", [0x09] = "AT_PERM",
    [0x0A] = "AT_ATS_ERROR", [0x0B] = "AT_NO_TRANS", [0x0C] = "AT_OUT_OF_RANGE",
    [0x0D] = "HOST_POISONED", [0x0E] = "HOST_UNSUCCESS_CMPL", [0x0F] = "AMO_UNSUPPORTED_OP",
    [0x10] = "AMO_UNSUPPORTED_DT", [0x11] = "AMO_UNSUPPORTED_SIZE", [0x12] = "AMO_UNALIGNED",
    [0x13] = "AMO_FP_NAN", [0x14] = "AMO_FP_UNDERFLOW", [0x15] = "AMO_FP_OVERFLOW",
    [0x16] = "AMO_FP_INEXACT", [0x17] = "PERM_VIOLATION", [0x18] = "OP_VIOLATION",
    [0x19] = "BAD_INDEX", [0x1A] = "BAD_PID", [0x1B] = "BAD_JOB_ID", [0x1C] = "BAD_MKEY",
    [0x1D] = "BAD_ADDR", [0x1E] = "CANCELLED", [0x1F] = "UNDELIVERABLE", [0x20] = "UNCOR",
    [0x21] = "UNCOR_TRNSNT", [0x22] = "TOO_LONG", [0x23] = "INITIATOR_ERR", [0x24] = "DROPPED",
}

local f = uet.fields
-- PDS prologue
f.pds = ProtoField.bytes("uet.pds", "PDS header")
f.pds_type = ProtoField.uint16("uet.pds.type", "Type", base.DEC, pds_types, 0xF800)
f.pds_nh = ProtoField.uint16("uet.pds.nh", "Next header", base.DEC, next_headers, 0x0780)
f.pds_ctl = ProtoField.uint16("uet.pds.ctl_type", "Control type", base.DEC, ctl_types, 0x0780)
f.pds_flags = ProtoField.uint16("uet.pds.flags", "Flags", base.HEX, nil, 0x007F)
f.flag_m = ProtoField.bool("uet.pds.flags.m", "M (ECN-CE echo)", 16, nil, 0x0020)
f.flag_retx = ProtoField.bool("uet.pds.flags.retx", "RETX (retransmission)", 16, nil, 0x0010)
f.flag_ar = ProtoField.bool("uet.pds.flags.ar", "AR (ACK request)", 16, nil, 0x0008)
f.flag_p = ProtoField.bool("uet.pds.flags.p", "P (probe response)", 16, nil, 0x0008)
f.flag_nt = ProtoField.bool("uet.pds.flags.nt", "NT (NACK of a RUDI packet)", 16, nil, 0x0008)
f.flag_syn = ProtoField.bool("uet.pds.flags.syn", "SYN (new PDC)", 16, nil, 0x0004)
f.flag_req = ProtoField.uint16("uet.pds.flags.req", "REQ", base.DEC, ack_requests, 0x0006)
-- PDS bodies
f.clear_psn_offset = ProtoField.int16("uet.pds.clear_psn_offset", "clear_psn_offset")
f.psn = ProtoField.uint32("uet.pds.psn", "PSN")
f.spdcid = ProtoField.uint16("uet.pds.spdcid", "SPDCID")
f.dpdcid = ProtoField.uint16("uet.pds.dpdcid", "DPDCID")
f.pdc_info = ProtoField.uint16("uet.pds.pdc_info", "pdc_info", base.DEC, nil, 0xF000)
f.psn_offset = ProtoField.uint16("uet.pds.psn_offset", "psn_offset", base.DEC, nil, 0x0FFF)
f.start_psn = ProtoField.uint32("uet.pds.start_psn", "Start_PSN (PSN - psn_offset)")
f.ccc_id = ProtoField.uint8("uet.pds.ccc_id", "CCC ID")
f.credit_target = ProtoField.uint24("uet.pds.credit_target", "credit_target")
f.reserved = ProtoField.uint16("uet.pds.reserved", "Reserved", base.HEX)
f.pkt_id = ProtoField.uint32("uet.pds.rudi.pkt_id", "pkt_id")
f.ack_psn_offset = ProtoField.int16("uet.pds.ack_psn_offset", "ack_psn_offset")
f.probe_opaque = ProtoField.uint16("uet.pds.probe_opaque", "probe_opaque", base.HEX)
f.cack_psn = ProtoField.uint32("uet.pds.cack_psn", "CACK_PSN")
f.ack_psn = ProtoField.uint32("uet.pds.ack_psn", "ACK_PSN (CACK_PSN + ack_psn_offset)")
f.cc_type = ProtoField.uint8("uet.pds.ack.cc_type", "cc_type", base.DEC, cc_types, 0xF0)
f.cc_flags = ProtoField.uint8("uet.pds.ack.cc_flags", "cc_flags", base.HEX, nil, 0x0F)
f.mpr = ProtoField.uint8("uet.pds.ack.mpr", "MPR")
f.sack_psn_offset = ProtoField.int16("uet.pds.ack.sack_psn_offset", "sack_psn_offset")
f.sack_bitmap = ProtoField.uint64("uet.pds.ack.sack_bitmap", "SACK bitmap", base.HEX)
f.service_time = ProtoField.uint16("uet.pds.ack.service_time", "service_time (128 ns)")
f.rc = ProtoField.bool("uet.pds.ack.rc", "RC (restore cwnd)", 8, nil, 0x80)
f.rcv_cwnd_pend = ProtoField.uint8("uet.pds.ack.rcv_cwnd_pend", "rcv_cwnd_pend", base.DEC, nil,
    0x7F)
f.rcvd_bytes = ProtoField.uint24("uet.pds.ack.rcvd_bytes", "rcvd_bytes (256 B)")
f.credit = ProtoField.uint24("uet.pds.ack.credit", "credit")
f.cc_reserved = ProtoField.uint24("uet.pds.ack.cc_reserved", "Reserved", base.HEX)
f.ooo_count = ProtoField.uint16("uet.pds.ack.ooo_count", "ooo_count")
f.cc_state = ProtoField.bytes("uet.pds.ack.cc_state", "CC state")
f.ccx_state = ProtoField.bytes("uet.pds.ack.ccx_state", "Extended CC state")
f.nack_code = ProtoField.uint8("uet.pds.nack.code", "nack_code", base.HEX, nack_codes)
f.nack_vendor = ProtoField.uint8("uet.pds.nack.vendor_code", "vendor_code", base.HEX)
f.nack_psn = ProtoField.uint32("uet.pds.nack.psn", "NACK_PSN")
f.nack_payload = ProtoField.uint32("uet.pds.nack.payload", "payload")
f.ctrl_payload = ProtoField.uint32("uet.pds.ctrl.payload", "payload")
-- SES requests
f.ses = ProtoField.bytes("uet.ses", "SES header")
f.ses_reserved = ProtoField.uint8("uet.ses.reserved", "Reserved", base.HEX, nil, 0xC0)
f.ses_opcode = ProtoField.uint8("uet.ses.opcode", "opcode", base.DEC, ses_opcodes, 0x3F)
f.ses_version = ProtoField.uint8("uet.ses.version", "version", base.DEC, nil, 0xC0)
f.ses_flags = ProtoField.uint8("uet.ses.flags", "Flags", base.HEX, nil, 0x3F)
f.ses_dc = ProtoField.bool("uet.ses.flags.dc", "DC (delivery complete)", 8, nil, 0x20)
f.ses_ie = ProtoField.bool("uet.ses.flags.ie", "IE (initiator error)", 8, nil, 0x10)
f.ses_rel = ProtoField.bool("uet.ses.flags.rel", "REL (relative addressing)", 8, nil, 0x08)
f.ses_hd = ProtoField.bool("uet.ses.flags.hd", "HD (header data)", 8, nil, 0x04)
f.ses_eom = ProtoField.bool("uet.ses.flags.eom", "EOM", 8, nil, 0x02)
f.ses_som = ProtoField.bool("uet.ses.flags.som", "SOM", 8, nil, 0x01)
f.ses_message_id = ProtoField.uint16("uet.ses.message_id", "message_id")
f.ses_ri_gen = ProtoField.uint8("uet.ses.ri_generation", "RI generation")
f.ses_job_id = ProtoField.uint24("uet.ses.job_id", "JobID")
f.ses_pid_on_fep = ProtoField.uint16("uet.ses.pid_on_fep", "PIDonFEP", base.DEC, nil, 0x0FFF)
f.ses_ri = ProtoField.uint16("uet.ses.resource_index", "Resource Index", base.DEC, nil, 0x0FFF)
f.ses_buffer_offset = ProtoField.uint64("uet.ses.buffer_offset", "buffer_offset")
f.ses_initiator = ProtoField.uint32("uet.ses.initiator", "initiator", base.HEX)
f.ses_memory_key = ProtoField.uint64("uet.ses.memory_key", "memory key / match bits", base.HEX)
f.ses_header_data = ProtoField.uint64("uet.ses.header_data", "header_data", base.HEX)
f.ses_payload_length = ProtoField.uint32("uet.ses.payload_length", "payload_length", base.DEC,
    nil, 0x3FFF)
f.ses_message_offset = ProtoField.uint32("uet.ses.message_offset", "message_offset")
f.ses_request_length = ProtoField.uint32("uet.ses.request_length", "request_length")
f.ses_small_request_length = ProtoField.uint16("uet.ses.small.request_length", "request_length",
    base.DEC, nil, 0x3FFF)
-- SES responses
f.rsp_list = ProtoField.uint8("uet.ses.rsp.list", "list", base.DEC, nil, 0xC0)
f.rsp_opcode = ProtoField.uint8("uet.ses.rsp.opcode", "opcode", base.DEC, rsp_opcodes, 0x3F)
f.rsp_version = ProtoField.uint8("uet.ses.rsp.version", "version", base.DEC, nil, 0xC0)
f.rsp_return_code = ProtoField.uint8("uet.ses.rsp.return_code", "return_code", base.DEC,
    return_codes, 0x3F)
f.rsp_message_id = ProtoField.uint16("uet.ses.rsp.message_id", "message_id")
f.rsp_ri_gen = ProtoField.uint8("uet.ses.rsp.ri_generation", "RI generation")
f.rsp_reserved = ProtoField.uint8("uet.ses.rsp.reserved", "Reserved", base.HEX)
f.rsp_job_id = ProtoField.uint24("uet.ses.rsp.job_id", "JobID")
f.rsp_modified_length = ProtoField.uint32("uet.ses.rsp.modified_length", "modified_length")
f.rsp_read_req_msg_id = ProtoField.uint16("uet.ses.rsp.read_request_message_id",
    "read_request_message_id")
f.rsp_payload_length = ProtoField.uint16("uet.ses.rsp.payload_length", "payload_length",
    base.DEC, nil, 0x3FFF)
f.rsp_message_offset = ProtoField.uint32("uet.ses.rsp.message_offset", "message_offset")

local e_truncated = ProtoExpert.new("uet.truncated", "UET header truncated",
    expert.group.MALFORMED, expert.severity.ERROR)
local e_unknown_type = ProtoExpert.new("uet.pds.unknown_type", "Unknown or undecoded PDS type",
    expert.group.UNDECODED, expert.severity.WARN)
local e_unknown_nh = ProtoExpert.new("uet.pds.unknown_nh", "Unknown or undecoded SES next header",
    expert.group.UNDECODED, expert.severity.WARN)
local e_unknown_ctl = ProtoExpert.new("uet.pds.unknown_ctl_type", "Unknown control type",
    expert.group.PROTOCOL, expert.severity.WARN)
local e_unknown_nack = ProtoExpert.new("uet.pds.nack.unknown_code", "Unknown NACK code",
    expert.group.PROTOCOL, expert.severity.WARN)
local e_unknown_cc = ProtoExpert.new("uet.pds.ack.unknown_cc_type", "Unknown cc_type",
    expert.group.PROTOCOL, expert.severity.WARN)
local e_unknown_opcode = ProtoExpert.new("uet.ses.unknown_opcode", "Unknown SES opcode",
    expert.group.PROTOCOL, expert.severity.WARN)
local e_unknown_rsp = ProtoExpert.new("uet.ses.rsp.unknown_opcode", "Unknown SES response opcode",
    expert.group.PROTOCOL, expert.severity.WARN)
local e_unknown_rc = ProtoExpert.new("uet.ses.rsp.unknown_return_code",
    "Unknown SES return code", expert.group.PROTOCOL, expert.severity.WARN)
uet.experts = { e_truncated, e_unknown_type, e_unknown_nh, e_unknown_ctl, e_unknown_nack,
    e_unknown_cc, e_unknown_opcode, e_unknown_rsp, e_unknown_rc }

local data_dissector = Dissector.get("data")

local function name_or(tbl, v)
    return tbl[v] or string.format("Unknown (%d)", v)
end

-- octets 10-11 of a request or control packet: DPDCID, or pdc_info | psn_offset with SYN
local function add_dpdcid(t, tvb, syn, psn)
    if syn then
        t:add(f.pdc_info, tvb(10, 2))
        t:add(f.psn_offset, tvb(10, 2))
        local start = (psn - bit.band(tvb(10, 2):uint(), 0x0FFF)) % 4294967296
        t:add(f.start_psn, start):set_generated()
    else
        t:add(f.dpdcid, tvb(10, 2))
    end
end

local function add_flags(t, tvb, type)
    local ft = t:add(f.pds_flags, tvb(0, 2))
    if type == 2 or type == 3 or type == 13 or type == 14 or type == 11 then
        ft:add(f.flag_retx, tvb(0, 2))
        ft:add(f.flag_ar, tvb(0, 2))
        ft:add(f.flag_syn, tvb(0, 2))
    elseif type == 4 or type == 5 then
        ft:add(f.flag_m, tvb(0, 2))
        ft:add(f.flag_retx, tvb(0, 2))
    elseif type == 7 or type == 8 or type == 9 then
        ft:add(f.flag_m, tvb(0, 2))
        ft:add(f.flag_retx, tvb(0, 2))
        ft:add(f.flag_p, tvb(0, 2))
        ft:add(f.flag_req, tvb(0, 2))
    elseif type == 10 then
        ft:add(f.flag_m, tvb(0, 2))
        ft:add(f.flag_retx, tvb(0, 2))
        ft:add(f.flag_nt, tvb(0, 2))
    end
end

-- Decode the PDS header at the start of tvb; returns its length (0 if not decoded), next header
-- and an info string.
local function dissect_pds(tvb, pinfo, tree)
    local len = tvb:len()
    if len < 2 then
        tree:add_proto_expert_info(e_truncated, "PDS prologue needs 2 bytes")
        return 0, 0, "truncated"
    end
    local prologue = tvb(0, 2):uint()
    local type = bit.rshift(prologue, 11)
    local nh = bit.band(bit.rshift(prologue, 7), 0xF)
    local flags = bit.band(prologue, 0x7F)
    local size = pds_sizes[type]
    local info = name_or(pds_types, type)
    if size == nil then
        local t = tree:add(f.pds, tvb(0, 2))
        t:set_text("PDS: " .. info)
        t:add(f.pds_type, tvb(0, 2))
        t:add_proto_expert_info(e_unknown_type,
            string.format("PDS type %d (%s) is not decoded", type, info))
        return 0, 0, info
    end
    if len < size then
        local t = tree:add(f.pds, tvb(0, len))
        t:add(f.pds_type, tvb(0, 2))
        t:add_proto_expert_info(e_truncated,
            string.format("%s header needs %d bytes, %d present", info, size, len))
        return 0, 0, info .. " (truncated)"
    end
    local t = tree:add(f.pds, tvb(0, size))
    t:set_text("PDS: " .. info)
    t:add(f.pds_type, tvb(0, 2))
    if type == 11 then
        local ci = t:add(f.pds_ctl, tvb(0, 2))
        if ctl_types[nh] == nil then
            ci:add_proto_expert_info(e_unknown_ctl, string.format("Control type %d is unknown", nh))
        end
        info = info .. " " .. name_or(ctl_types, nh)
    else
        t:add(f.pds_nh, tvb(0, 2))
    end
    add_flags(t, tvb, type)
    local syn = bit.band(flags, 0x04) ~= 0 and (type <= 3 or type >= 11)

    if type == 2 or type == 3 or type == 13 or type == 14 then
        local psn = tvb(4, 4):uint()
        t:add(f.clear_psn_offset, tvb(2, 2))
        t:add(f.psn, tvb(4, 4))
        t:add(f.spdcid, tvb(8, 2))
        add_dpdcid(t, tvb, syn, psn)
        if type >= 13 then
            t:add(f.ccc_id, tvb(12, 1))
            t:add(f.credit_target, tvb(13, 3))
        end
        info = info .. " psn=" .. psn
    elseif type == 4 or type == 5 then
        t:add(f.reserved, tvb(2, 2))
        t:add(f.pkt_id, tvb(4, 4))
        info = info .. " pkt_id=" .. tvb(4, 4):uint()
    elseif type == 6 then
        t:add(f.reserved, tvb(2, 2))
    elseif type == 7 or type == 8 or type == 9 then
        local cack = tvb(4, 4):uint()
        if bit.band(flags, 0x08) ~= 0 then
            t:add(f.probe_opaque, tvb(2, 2))
        else
            t:add(f.ack_psn_offset, tvb(2, 2))
            t:add(f.ack_psn, (cack + tvb(2, 2):int()) % 4294967296):set_generated()
        end
        t:add(f.cack_psn, tvb(4, 4))
        t:add(f.spdcid, tvb(8, 2))
        t:add(f.dpdcid, tvb(10, 2))
        info = info .. " cack_psn=" .. cack
        if type ~= 7 then
            local cc_type = bit.rshift(tvb(12, 1):uint(), 4)
            local ci = t:add(f.cc_type, tvb(12, 1))
            t:add(f.cc_flags, tvb(12, 1))
            t:add(f.mpr, tvb(13, 1))
            t:add(f.sack_psn_offset, tvb(14, 2))
            t:add(f.sack_bitmap, tvb(16, 8))
            if type == 9 then
                t:add(f.ccx_state, tvb(24, 16))
            elseif cc_type == 0 then
                local st = t:add(f.cc_state, tvb(24, 8))
                st:set_text("CC state: NSCC")
                st:add(f.service_time, tvb(24, 2))
                st:add(f.rc, tvb(26, 1))
                st:add(f.rcv_cwnd_pend, tvb(26, 1))
                st:add(f.rcvd_bytes, tvb(27, 3))
                st:add(f.ooo_count, tvb(30, 2))
            elseif cc_type == 1 then
                local st = t:add(f.cc_state, tvb(24, 8))
                st:set_text("CC state: credit")
                st:add(f.credit, tvb(24, 3))
                st:add(f.cc_reserved, tvb(27, 3))
                st:add(f.ooo_count, tvb(30, 2))
            else
                t:add(f.cc_state, tvb(24, 8))
                ci:add_proto_expert_info(e_unknown_cc, string.format("cc_type %d is unknown",
                    cc_type))
            end
        end
    elseif type == 10 then
        local code = tvb(2, 1):uint()
        local ni = t:add(f.nack_code, tvb(2, 1))
        if nack_codes[code] == nil then
            ni:add_proto_expert_info(e_unknown_nack, string.format("NACK code 0x%02x is unknown",
                code))
        end
        t:add(f.nack_vendor, tvb(3, 1))
        t:add(f.nack_psn, tvb(4, 4))
        t:add(f.spdcid, tvb(8, 2))
        t:add(f.dpdcid, tvb(10, 2))
        t:add(f.nack_payload, tvb(12, 4))
        info = info .. " " .. name_or(nack_codes, code) .. " psn=" .. tvb(4, 4):uint()
    elseif type == 11 then
        local psn = tvb(4, 4):uint()
        t:add(f.probe_opaque, tvb(2, 2))
        t:add(f.psn, tvb(4, 4))
        t:add(f.spdcid, tvb(8, 2))
        add_dpdcid(t, tvb, syn, psn)
        t:add(f.ctrl_payload, tvb(12, 4))
        info = info .. " psn=" .. psn
        nh = 0 -- a control packet carries no SES header
    end
    return size, nh, info
end

local function ses_request_common(t, tvb)
    t:add(f.ses_reserved, tvb(0, 1))
    local oi = t:add(f.ses_opcode, tvb(0, 1))
    local op = bit.band(tvb(0, 1):uint(), 0x3F)
    if ses_opcodes[op] == nil then
        oi:add_proto_expert_info(e_unknown_opcode, string.format("SES opcode %d is unknown", op))
    end
    t:add(f.ses_version, tvb(1, 1))
    local ft = t:add(f.ses_flags, tvb(1, 1))
    ft:add(f.ses_dc, tvb(1, 1))
    ft:add(f.ses_ie, tvb(1, 1))
    ft:add(f.ses_rel, tvb(1, 1))
    ft:add(f.ses_hd, tvb(1, 1))
    ft:add(f.ses_eom, tvb(1, 1))
    ft:add(f.ses_som, tvb(1, 1))
    t:add(f.ses_ri_gen, tvb(4, 1))
    t:add(f.ses_job_id, tvb(5, 3))
    t:add(f.ses_pid_on_fep, tvb(8, 2))
    t:add(f.ses_ri, tvb(10, 2))
    return name_or(ses_opcodes, op)
end

local function ses_response_common(t, tvb)
    t:add(f.rsp_list, tvb(0, 1))
    local oi = t:add(f.rsp_opcode, tvb(0, 1))
    local op = bit.band(tvb(0, 1):uint(), 0x3F)
    if rsp_opcodes[op] == nil then
        oi:add_proto_expert_info(e_unknown_rsp, string.format("SES response opcode %d is unknown",
            op))
    end
    t:add(f.rsp_version, tvb(1, 1))
    local ri = t:add(f.rsp_return_code, tvb(1, 1))
    local rc = bit.band(tvb(1, 1):uint(), 0x3F)
    if return_codes[rc] == nil then
        ri:add_proto_expert_info(e_unknown_rc, string.format("SES return code %d is unknown", rc))
    end
    t:add(f.rsp_message_id, tvb(2, 2))
    t:add(f.rsp_job_id, tvb(5, 3))
    return name_or(rsp_opcodes, op) .. " " .. name_or(return_codes, rc)
end

-- Decode the SES header announced by nh at the start of tvb; returns its length and info.
local function dissect_ses(tvb, pinfo, tree, nh)
    if nh == 0 then
        return 0, ""
    end
    local size = ses_sizes[nh]
    if size == nil then
        tree:add_proto_expert_info(e_unknown_nh,
            string.format("SES header %d (%s) is not decoded", nh, name_or(next_headers, nh)))
        return 0, ""
    end
    if tvb:len() < size then
        tree:add_proto_expert_info(e_truncated,
            string.format("SES %s header needs %d bytes, %d present", next_headers[nh], size,
                tvb:len()))
        return 0, ""
    end
    local t = tree:add(f.ses, tvb(0, size))
    t:set_text("SES: " .. next_headers[nh])
    local info
    if nh == 3 then
        info = ses_request_common(t, tvb)
        t:add(f.ses_message_id, tvb(2, 2))
        t:add(f.ses_buffer_offset, tvb(12, 8))
        t:add(f.ses_initiator, tvb(20, 4))
        t:add(f.ses_memory_key, tvb(24, 8))
        if bit.band(tvb(1, 1):uint(), 0x01) ~= 0 then
            t:add(f.ses_header_data, tvb(32, 8))
        else
            t:add(f.ses_payload_length, tvb(32, 4))
            t:add(f.ses_message_offset, tvb(36, 4))
        end
        t:add(f.ses_request_length, tvb(40, 4))
    elseif nh == 1 then
        info = ses_request_common(t, tvb)
        t:add(f.ses_small_request_length, tvb(2, 2))
        t:add(f.ses_buffer_offset, tvb(12, 8))
    elseif nh == 4 then
        info = ses_response_common(t, tvb)
        t:add(f.rsp_ri_gen, tvb(4, 1))
        t:add(f.rsp_modified_length, tvb(8, 4))
    else -- nh == 5
        info = ses_response_common(t, tvb)
        t:add(f.rsp_reserved, tvb(4, 1))
        t:add(f.rsp_read_req_msg_id, tvb(8, 2))
        t:add(f.rsp_payload_length, tvb(10, 2))
        t:add(f.rsp_modified_length, tvb(12, 4))
        t:add(f.rsp_message_offset, tvb(16, 4))
    end
    return size, " SES " .. info
end

function uet.dissector(tvb, pinfo, tree)
    pinfo.cols.protocol = "UET"
    local root = tree:add(uet, tvb())
    local pds_len, nh, info = dissect_pds(tvb, pinfo, root)
    local offset = pds_len
    if pds_len > 0 and nh ~= 0 then
        if pds_len < tvb:len() then
            local ses_len, ses_info = dissect_ses(tvb(pds_len):tvb(), pinfo, root, nh)
            offset = offset + ses_len
            info = info .. ses_info
        else
            root:add_proto_expert_info(e_truncated,
                string.format("next header %s announced, no bytes follow the PDS header",
                    name_or(next_headers, nh)))
        end
    end
    pinfo.cols.info = info
    root:append_text(", " .. info)
    if offset > 0 and offset < tvb:len() then
        data_dissector:call(tvb(offset):tvb(), pinfo, tree)
    end
    return tvb:len()
end

DissectorTable.get("udp.port"):add(UDP_PORT, uet)
