package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.programs.hashpipe.control.HashPipeReport;

import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.max;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.ne;
import static dev.rmtemu.model.ir.Ir.or;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static dev.rmtemu.model.ir.Ir.shr;

/**
 * HashPipe (Sivaraman et al., SOSR 2017) as a stage program in the IR.
 *
 * <p>Ingress stage 0 computes the packet's key and increment and offers them
 * as the first entry ({@code hp.carry_key}, {@code hp.carry_count}). HashPipe
 * stage i is ingress stage i+1: it hashes the offered key to a slot and does
 * one read-modify-write of the (key, count) pair there. Stage 1 always inserts
 * (hit: add; miss: write the packet's entry, evict the resident). Later stages
 * merge on a hit or an empty slot; on a miss they keep the larger count, and
 * the smaller entry goes on. After stage d the carried entry is dropped.
 *
 * <p>Fitting tofino1: a stateful ALU's output reaches the PHV only when its
 * stage ends, and a stateful ALU reads at most two PHV words, fixed per
 * register. So the decision of what to carry on is its own stage: HashPipe
 * stage i's stateful ALUs sit in ingress stage 2i+1 and write their outputs
 * ({@code hp.out_key}, {@code hp.out_count}); the select stage after them puts
 * the evicted resident, nothing, or the entry kept out into {@code hp.carry_*},
 * which the next stateful-ALU stage reads. d = 6 takes all 12 of tofino1's
 * stages. A stateful ALU returns one 32-bit word but a swap must return the
 * evicted key and its count, so each stage holds the table twice in two pair
 * arrays ({@code lo} = key, {@code hi} = count) whose stateful ALUs run the same
 * update on the same inputs and so never differ: the primary's output is the
 * evicted key, the mirror's the resident count (a second stateful ALU and twice
 * the SRAM per stage). tofino1 has no divider, so a stage's slot count must be
 * a power of two there (its slot is a mask of the hash).
 *
 * <p>The 5-tuple key (104 bits) needs a 128-bit cell with a 24-bit count, a
 * free-form stateful ALU and several operations per instruction: it runs on
 * {@code unconstrained} and is reported as not fitting tofino1.
 */
public final class HashPipeProgram implements ProgramFactory {
    public static final String NAME = "hashpipe";
    public static final int DEFAULT_EGRESS_PORT = 1;
    /** Ingress stage of the key stage; HashPipe stage i's stateful ALUs are in ingress stage {@link #saluStage}(i). */
    public static final int KEY_STAGE = 0;
    /** Flows the replay summary lists (see {@link HashPipeReport}). */
    public static final int DEFAULT_REPORT_TOP = 20;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "HashPipe heavy-hitter detection (SOSR 2017): d stages of (key, count) pairs, keep the larger, carry the smaller";
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("stages", HashPipeConfig.DEFAULT_STAGES, 1, HashPipeConfig.MAX_STAGES,
                        "d, the number of HashPipe stages (paper: 6)"),
                ParamSpec.integer("counters", HashPipeConfig.DEFAULT_COUNTERS, 1, 1L << 24,
                        "total (key, count) slots, split equally over the stages; a power of two per stage on "
                                + "targets without a divider (paper: 4500)"),
                ParamSpec.choice("key", HashPipeConfig.DEFAULT_KEY, KeyKind.labels(),
                        "flow key: 32-bit CRC-32 fingerprint of the 5-tuple (IPv4 and IPv6), IPv4 source, or the 104-bit"
                                + " IPv4 5-tuple (the last two fold IPv6 addresses, and the replay warns)"),
                ParamSpec.choice("hash", HashPipeConfig.FAMILY_CRC32, HashPipeConfig.HASH_FAMILIES,
                        "index hash family: CRC-32 with a different polynomial per stage, or seeded SplitMix"),
                ParamSpec.choice("count", "packets", List.of("packets", "bytes"), "count packets or bytes (IP length + Ethernet header)"),
                ParamSpec.integer("port", DEFAULT_EGRESS_PORT, 0, 511, "egress port every packet is sent to"),
                ParamSpec.integer("top", DEFAULT_REPORT_TOP, 1, 100_000, "flows the replay summary lists (control plane only)"));
    }

    /** Name of HashPipe stage {@code i}'s primary array (key in lo, count in hi); the collector reads it. */
    public static String tableName(int i) {
        return "hashpipe_s" + i;
    }

    /** Name of stage {@code i}'s mirror array (same contents; its ALU returns the evicted count). */
    public static String mirrorName(int i) {
        return "hashpipe_s" + i + "_mirror";
    }

    @Override
    public StageProgram build(ProgramParams p) {
        HashPipeParams x = HashPipeParams.from(p);
        return build(x.config(), x.port(), p).withConfig(x);
    }

    /** The PHV fields the stages pass on: the entry offered to a stage, and the stage's stateful-ALU outputs. */
    private record Carry(Field key, Field keyHi, Field count, Field outKey, Field outKeyHi, Field outCount) {
    }

    /** Builds the program for a configuration (tests and the experiment use this directly). */
    public StageProgram build(HashPipeConfig cfg, long port, ProgramParams forReport) {
        ProgramBuilder b = ProgramBuilder.create(NAME, description());
        if (forReport != null) {
            forReport.values().forEach(b::param);
        }
        b.param("counters_per_stage", cfg.countersPerStage());
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        FrameBytes length = cfg.countBytes() ? new FrameBytes(b) : null;
        boolean wide = cfg.key().wide();
        int keyBits = wide ? 64 : 32;
        Carry carry = new Carry(
                b.metadata(Gress.INGRESS, "hp.carry_key", keyBits),
                wide ? b.metadata(Gress.INGRESS, "hp.carry_key_hi", KeyKind.FIVETUPLE_HI_BITS) : null,
                b.metadata(Gress.INGRESS, "hp.carry_count", cfg.countBits()),
                b.metadata(Gress.INGRESS, "hp.out_key", keyBits),
                wide ? b.metadata(Gress.INGRESS, "hp.out_key_hi", KeyKind.FIVETUPLE_HI_BITS) : null,
                b.metadata(Gress.INGRESS, "hp.out_count", cfg.countBits()));

        keyStage(b, cfg, egressPort, length, carry, port);
        for (int i = 0; i < cfg.stages(); i++) {
            hashPipeStage(b, cfg, i, carry);
        }
        return b.build();
    }

    /** The packet's own entry is the first one offered: its key and its increment. */
    private static void keyStage(ProgramBuilder b, HashPipeConfig cfg, Field egressPort, FrameBytes length, Carry carry, long port) {
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, KEY_STAGE);
        // key 0 marks an empty slot, so a key that hashes to 0 takes the alias: max(key, alias) with alias 1
        switch (cfg.key()) {
            case FINGERPRINT -> {
                HashUnit fp = s.hash("hp_fingerprint", HashAlgorithm.byName(HashPipeConfig.FINGERPRINT_HASH), 32,
                        fingerprintInputs(b));
                s.body(code -> {
                    code.set(carry.key(), max(hash(fp), constant(KeyKind.ZERO_KEY_ALIAS)));
                    increment(code, carry.count(), length);
                    code.set(egressPort, port);
                });
            }
            case SRCIP -> {
                // an IPv6 packet's source folds to its address bits 95..64, the IPv4 slot of its
                // first half (reported as ipv6_folded): the two headers overlay one PHV field
                Field src = b.overlay("ip.src_addr32", "ipv4.src_addr", "ipv6.src_addr[95:64]");
                s.body(code -> {
                    code.set(carry.key(), max(read(src), constant(KeyKind.ZERO_KEY_ALIAS)));
                    increment(code, carry.count(), length);
                    code.set(egressPort, port);
                });
            }
            case FIVETUPLE -> {
                // several operations per instruction: the 5-tuple key runs on 'unconstrained' only
                FiveTuple t = FiveTuple.declare(b);
                s.body(code -> {
                    code.set(carry.key(), max(or(shl(read(t.src()), constant(32)), read(t.dst())),
                            constant(KeyKind.ZERO_KEY_ALIAS)))
                            .set(carry.keyHi(), or(or(shl(read(t.proto()), constant(32)), shl(read(t.srcPort()), constant(16))),
                                    read(t.dstPort())));
                    increment(code, carry.count(), length);
                    code.set(egressPort, port);
                });
            }
        }
    }

    /**
     * The packet's increment: 1, or its frame's bytes. A Tofino ingress has no packet length
     * (TNA's {@code pkt_length} is egress intrinsic metadata), so the bytes are the parsed IP
     * length plus the headers before it: IPv4's total length + Ethernet, IPv6's payload length +
     * its fixed header + Ethernet. That is the wire length of every untagged IP frame without
     * Ethernet padding (a VLAN tag or padding of a short frame is not counted).
     */
    private static void increment(Block code, Field count, FrameBytes length) {
        if (length == null) {
            code.set(count, 1);
            return;
        }
        code.when(eq(read(length.ipv6), constant(1)),
                v6 -> v6.set(count, add(read(length.ipLength), constant(ETHERNET_HEADER_BYTES + IPV6_HEADER_BYTES))),
                v4 -> v4.set(count, add(read(length.ipLength), constant(ETHERNET_HEADER_BYTES))));
    }

    /** Ethernet's header (destination, source, EtherType) and IPv6's fixed header: bytes before the lengths IP states. */
    static final int ETHERNET_HEADER_BYTES = 14;
    static final int IPV6_HEADER_BYTES = 40;

    /** The parsed fields a byte count reads: IPv4's total length or IPv6's payload length (one PHV field), and IPv6's validity. */
    private static final class FrameBytes {
        final Field ipLength;
        final Field ipv6;

        FrameBytes(ProgramBuilder b) {
            ipLength = b.overlay("ip.length", "ipv4.total_len", "ipv6.payload_len");
            ipv6 = b.valid("ipv6");
        }
    }

    /**
     * The fingerprint's inputs, in the order {@link FlowKeys} feeds them: IP version, the
     * 128-bit source and destination address slots (an IPv6 address, or an IPv4 address in
     * the low 32 bits of the high half and zeros), protocol and ports. So IPv6 flows are keyed
     * by their whole 5-tuple, and an IPv4 and an IPv6 flow never share a fingerprint input.
     * The IPv4 and IPv6 headers, and TCP, UDP, ICMP and ICMPv6, are mutually exclusive: each
     * slot is one PHV field overlaying them (the protocol of an IPv6 packet is its first next
     * header).
     */
    static Field[] fingerprintInputs(ProgramBuilder b) {
        return new Field[] {
            b.overlay("ip.version", "ipv4.version", "ipv6.version"),
            b.overlay("ip.src_addr_hi", "ipv6.src_addr[127:64]", "ipv4.src_addr"),
            b.header("ipv6.src_addr[63:0]"),
            b.overlay("ip.dst_addr_hi", "ipv6.dst_addr[127:64]", "ipv4.dst_addr"),
            b.header("ipv6.dst_addr[63:0]"),
            b.overlay("ip.protocol", "ipv4.protocol", "ipv6.next_hdr"),
            b.overlay("l4.src_port", "tcp.src_port", "udp.src_port", "icmp.type", "icmpv6.type"),
            b.overlay("l4.dst_port", "tcp.dst_port", "udp.dst_port", "icmp.code", "icmpv6.code")};
    }

    /** The ingress stage of HashPipe stage i's stateful ALUs; the stage before it (from i = 1) selects its entry. */
    public static int saluStage(int i) {
        return KEY_STAGE + 1 + 2 * i;
    }

    /**
     * HashPipe stage i: a select stage (from i = 1) and a stateful-ALU stage. A
     * stateful ALU reads at most two PHV words, fixed per register, so the entry it
     * is offered must already be in one pair of fields: the select stage's
     * gateways read the previous stateful-ALU stage's outputs and put in
     * {@code hp.carry_*} the evicted resident (always after stage 1; later when
     * out_key is not 0), nothing (out_count 0: the entry merged or filled an empty
     * slot), or leave the entry the previous stage kept out. The stateful-ALU
     * stage runs both mirrored ALUs on the carried entry's slot and writes their
     * outputs. A carried count of 0 changes no slot (a hit adds 0; a miss never
     * finds a smaller resident), so the ALU stage needs no gateway.
     */
    private static void hashPipeStage(ProgramBuilder b, HashPipeConfig cfg, int i, Carry carry) {
        int size = cfg.countersPerStage();
        boolean wide = carry.keyHi() != null;
        boolean first = i == 0;
        if (!first) {
            selectStage(b.stage(Gress.INGRESS, saluStage(i) - 1), i == 1, carry);
        }
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, saluStage(i));
        HashUnit index = wide
                ? s.hash("hp_s" + i + "_index", cfg.stageHash(i), HashPipeConfig.INDEX_HASH_BITS, carry.key(), carry.keyHi())
                : s.hash("hp_s" + i + "_index", cfg.stageHash(i), HashPipeConfig.INDEX_HASH_BITS, carry.key());
        RegisterArray table = s.register(tableName(i), wide ? 64 : HashPipeConfig.COUNT_BITS, true, size);
        RegisterArray mirror = s.register(mirrorName(i), wide ? 64 : HashPipeConfig.COUNT_BITS, true, size);
        // a power-of-two size is a mask of the hash bits; another size needs a divider ('unconstrained' only)
        Expr slot = mod(hash(index), constant(size));
        if (wide) {
            String name = first ? "insert_5tuple" : "merge_or_keep_larger_5tuple";
            RegisterAction evictKey = s.action(RegisterAction.freeform(table, name,
                    (cell, inLo, inHi) -> WideCell.step(cell, inLo, inHi, first, true)));
            RegisterAction evictHi = s.action(RegisterAction.freeform(mirror, name,
                    (cell, inLo, inHi) -> WideCell.step(cell, inLo, inHi, first, false)));
            Expr inHi = or(shl(read(carry.count()), constant(KeyKind.FIVETUPLE_HI_BITS)), read(carry.keyHi()));
            s.body(code -> code
                    .execute(evictKey, slot, read(carry.key()), inHi)
                    .execute(evictHi, slot, read(carry.key()), inHi)
                    .set(carry.outKey(), output(evictKey))
                    .set(carry.outKeyHi(), and(output(evictHi), constant(WideCell.KEY_HI_MASK)))
                    .set(carry.outCount(), shr(output(evictHi), constant(KeyKind.FIVETUPLE_HI_BITS))));
            return;
        }
        RegisterAction evictKey = s.action(update(table, first).output(first ? Predicate.NOT_C0 : Predicate.NOT_C0_AND_C1,
                RegisterAction.OutputSource.OLD_LO));
        // the mirror reports the resident count on every miss: 0 means the slot was empty
        RegisterAction evictCount = s.action(update(mirror, first).output(Predicate.NOT_C0, RegisterAction.OutputSource.OLD_HI));
        s.body(code -> code
                .execute(evictKey, slot, read(carry.key()), read(carry.count()))
                .execute(evictCount, slot, read(carry.key()), read(carry.count()))
                .set(carry.outKey(), output(evictKey))
                .set(carry.outCount(), output(evictCount)));
    }

    /** What the next stateful-ALU stage is offered, from the previous one's outputs. */
    private static void selectStage(ProgramBuilder.StageBuilder s, boolean afterFirst, Carry carry) {
        s.body(code -> code.when(eq(read(carry.outCount()), constant(0)),
                nothing -> carryNothing(nothing, carry),
                carried -> {
                    if (afterFirst) {
                        carryEvicted(carried, carry);
                    } else {
                        // out_key 0 on a miss: the resident was larger; the carried entry goes on as it is
                        carried.when(ne(read(carry.outKey()), constant(0)), evicted -> carryEvicted(evicted, carry));
                    }
                }));
    }

    private static void carryNothing(Block code, Carry carry) {
        code.set(carry.key(), 0).set(carry.count(), 0);
        if (carry.keyHi() != null) {
            code.set(carry.keyHi(), 0);
        }
    }

    private static void carryEvicted(Block code, Carry carry) {
        code.set(carry.key(), read(carry.outKey())).set(carry.count(), read(carry.outCount()));
        if (carry.keyHi() != null) {
            code.set(carry.keyHi(), read(carry.outKeyHi()));
        }
    }

    /**
     * The stage's read-modify-write on a (key lo, count hi) pair. Stage 1:
     * c0 = hit; hit adds, miss overwrites with the carried entry. Later stages:
     * c0 = hit, c1 = resident count below the carried one (an empty slot has
     * count 0, so it is replaced like a smaller resident, evicting nothing).
     */
    private static RegisterAction.Builder update(RegisterArray a, boolean first) {
        RegisterAction.Builder r = RegisterAction.on(a, first ? "insert" : "merge_or_keep_larger")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO);
        if (first) {
            return r.updateLo(Predicate.NOT_C0, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                    .updateHi(Predicate.C0, AluOp.ADD, Operand.REG_HI, Operand.IN_HI)
                    .updateHi(Predicate.NOT_C0, AluOp.SET, Operand.IN_HI, Operand.constant(0));
        }
        return r.condition(Operand.REG_HI, CmpOp.LT, Operand.IN_HI)
                .updateLo(Predicate.NOT_C0_AND_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .updateHi(Predicate.C0, AluOp.ADD, Operand.REG_HI, Operand.IN_HI)
                .updateHi(Predicate.NOT_C0_AND_C1, AluOp.SET, Operand.IN_HI, Operand.constant(0));
    }
}
