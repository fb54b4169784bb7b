package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.model.arith.Divisor;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
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

/**
 * HashPipe (Sivaraman et al., SOSR 2017) as a stage program.
 *
 * <p>Ingress stage 0 computes the packet's key and increment and puts them in
 * the carried entry ({@code hp.carry_key}, {@code hp.carry_count}): the packet's
 * own entry is the first one carried. HashPipe stage i is ingress stage i+1: it
 * hashes the carried key to a slot and does one read-modify-write of the
 * (key, count) pair there. Stage 1 always inserts (hit: add; miss: write the
 * packet's entry and carry the resident out). Later stages merge on a hit or an
 * empty slot and stop carrying; on a miss they keep the larger count and carry
 * the smaller entry on. After stage d the carried entry is dropped.
 *
 * <p>Fitting tofino1: a stateful ALU returns one 32-bit word, but a swap must
 * return both the evicted key and its count. Each stage therefore holds the
 * table twice, in two pair arrays ({@code lo} = key, {@code hi} = count) whose
 * stateful ALUs run the same update on the same inputs, so they never differ:
 * the primary's output is the evicted key, the mirror's the evicted count. That
 * costs a second stateful ALU and twice the SRAM per stage, but no extra
 * stage, so d ≤ 11 fits tofino1's 12 stages. (Splitting a stage into a key
 * array and a count array cannot work: the key write needs the count
 * comparison and the count write needs the key match, a cycle within one pass.)
 *
 * <p>The 5-tuple key (104 bits) needs a 128-bit cell with a 24-bit count and a
 * free-form stateful ALU to compare it: it runs on {@code unconstrained} and is
 * reported as not fitting tofino1.
 */
public final class HashPipeProgram implements ProgramFactory {
    public static final String NAME = "hashpipe";
    public static final int DEFAULT_EGRESS_PORT = 1;
    /** Ingress stage of the key stage; HashPipe stage i is ingress stage KEY_STAGE + 1 + i. */
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
                        "total (key, count) slots, split equally over the stages (paper: 4500)"),
                ParamSpec.choice("key", HashPipeConfig.DEFAULT_KEY, KeyKind.labels(),
                        "flow key: 32-bit CRC-32 fingerprint of the 5-tuple, IPv4 source, or the 104-bit 5-tuple"),
                ParamSpec.choice("hash", HashPipeConfig.FAMILY_CRC32, HashPipeConfig.HASH_FAMILIES,
                        "index hash family: CRC-32 with a different polynomial per stage, or seeded SplitMix"),
                ParamSpec.choice("count", "packets", List.of("packets", "bytes"), "count packets or bytes (wire length)"),
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
        HashPipeConfig cfg = HashPipeConfig.from(p);
        return build(cfg, p.longValue("port"), p);
    }

    /** Builds the program for a configuration (tests and the experiment use this directly). */
    public StageProgram build(HashPipeConfig cfg, long port, ProgramParams forReport) {
        ProgramBuilder b = ProgramBuilder.create(NAME, description());
        if (forReport != null) {
            forReport.values().forEach(b::param);
        }
        b.param("counters_per_stage", cfg.countersPerStage());
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field length = cfg.countBytes() ? b.header("pkt.length", 16, ParsedField.PACKET_LENGTH) : null;
        boolean wide = cfg.key().wide();
        Field carryKey = b.metadata(Gress.INGRESS, "hp.carry_key", wide ? 64 : 32);
        Field carryKeyHi = wide ? b.metadata(Gress.INGRESS, "hp.carry_key_hi", KeyKind.FIVETUPLE_HI_BITS) : null;
        Field carryCount = b.metadata(Gress.INGRESS, "hp.carry_count", cfg.countBits());

        keyStage(b, cfg, egressPort, length, carryKey, carryKeyHi, carryCount, port);
        for (int i = 0; i < cfg.stages(); i++) {
            if (wide) {
                wideStage(b, cfg, i, carryKey, carryKeyHi, carryCount);
            } else {
                narrowStage(b, cfg, i, carryKey, carryCount);
            }
        }
        return b.build();
    }

    private static void keyStage(ProgramBuilder b, HashPipeConfig cfg, Field egressPort, Field length,
                                 Field carryKey, Field carryKeyHi, Field carryCount, long port) {
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, KEY_STAGE);
        switch (cfg.key()) {
            case FINGERPRINT -> {
                FiveTuple t = FiveTuple.declare(b);
                HashUnit fp = s.hash("hp_fingerprint", HashAlgorithm.byName(HashPipeConfig.FINGERPRINT_HASH), 32, t.fields());
                s.apply(ctx -> {
                    ctx.set(carryKey, FlowKeys.nonZero(ctx.hash(fp)));
                    ctx.set(carryCount, length == null ? 1 : ctx.get(length));
                    ctx.set(egressPort, port);
                });
            }
            case SRCIP -> {
                Field src = b.header("ipv4.src_addr", 32, ParsedField.IPV4_SRC);
                s.apply(ctx -> {
                    ctx.set(carryKey, FlowKeys.nonZero(ctx.get(src)));
                    ctx.set(carryCount, length == null ? 1 : ctx.get(length));
                    ctx.set(egressPort, port);
                });
            }
            case FIVETUPLE -> {
                FiveTuple t = FiveTuple.declare(b);
                s.apply(ctx -> {
                    long lo = (ctx.get(t.src()) << 32) | ctx.get(t.dst());
                    ctx.set(carryKey, lo == 0 ? KeyKind.ZERO_KEY_ALIAS : lo);
                    ctx.set(carryKeyHi, (ctx.get(t.proto()) << 32) | (ctx.get(t.srcPort()) << 16) | ctx.get(t.dstPort()));
                    ctx.set(carryCount, length == null ? 1 : ctx.get(length));
                    ctx.set(egressPort, port);
                });
            }
        }
    }

    /** A stage with 32-bit keys: two mirrored PAIR atoms (tofino1's stateful ALUs). */
    private static void narrowStage(ProgramBuilder b, HashPipeConfig cfg, int i, Field carryKey, Field carryCount) {
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, KEY_STAGE + 1 + i);
        int size = cfg.countersPerStage();
        Divisor fold = new Divisor(size); // hash mod size without a 64-bit idiv per packet
        HashUnit index = s.hash("hp_s" + i + "_index", cfg.stageHash(i), HashPipeConfig.INDEX_HASH_BITS, carryKey);
        RegisterArray table = s.register(tableName(i), HashPipeConfig.COUNT_BITS, true, size);
        RegisterArray mirror = s.register(mirrorName(i), HashPipeConfig.COUNT_BITS, true, size);
        boolean first = i == 0;
        RegisterAction evictKey = s.action(update(table, first).output(first ? Predicate.NOT_C0 : Predicate.NOT_C0_AND_C1,
                RegisterAction.OutputSource.OLD_LO));
        // the mirror reports the resident count on every miss: 0 means the slot was empty
        RegisterAction evictCount = s.action(update(mirror, first).output(Predicate.NOT_C0, RegisterAction.OutputSource.OLD_HI));
        s.apply(ctx -> {
            long key = ctx.get(carryKey);
            long count = ctx.get(carryCount);
            long slot = fold.remainder(ctx.hash(index));
            long outKey = ctx.execute(evictKey, slot, key, count);
            long outCount = ctx.execute(evictCount, slot, key, count);
            carryOn(ctx, carryKey, carryCount, outKey, outCount, first);
        });
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

    /**
     * What the next stage carries, from the two ALU outputs. outCount 0: the
     * carried entry merged (hit) or filled an empty slot: carry nothing. Stage 1
     * or a non-zero evicted key: the resident was evicted and goes on. Otherwise
     * the carried entry lost the comparison and goes on unchanged (no write).
     */
    private static void carryOn(dev.rmtemu.model.runtime.StageContext ctx, Field carryKey, Field carryCount,
                                long outKey, long outCount, boolean first) {
        if (outCount == 0) {
            ctx.set(carryKey, 0);
            ctx.set(carryCount, 0);
        } else if (first || outKey != 0) {
            ctx.set(carryKey, outKey);
            ctx.set(carryCount, outCount);
        }
    }

    /**
     * A stage with 5-tuple keys: lo = src·dst, hi = count (24 b, saturating) above
     * proto·ports (40 b). Comparing 104 key bits needs a free-form stateful ALU.
     */
    private static void wideStage(ProgramBuilder b, HashPipeConfig cfg, int i, Field carryKey, Field carryKeyHi,
                                  Field carryCount) {
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, KEY_STAGE + 1 + i);
        int size = cfg.countersPerStage();
        Divisor fold = new Divisor(size); // hash mod size without a 64-bit idiv per packet
        HashUnit index = s.hash("hp_s" + i + "_index", cfg.stageHash(i), HashPipeConfig.INDEX_HASH_BITS, carryKey, carryKeyHi);
        RegisterArray table = s.register(tableName(i), 64, true, size);
        RegisterArray mirror = s.register(mirrorName(i), 64, true, size);
        boolean first = i == 0;
        String name = first ? "insert_5tuple" : "merge_or_keep_larger_5tuple";
        RegisterAction evictKey = s.action(RegisterAction.freeform(table, name,
                (cell, inLo, inHi) -> WideCell.step(cell, inLo, inHi, first, true)));
        RegisterAction evictHiWord = s.action(RegisterAction.freeform(mirror, name,
                (cell, inLo, inHi) -> WideCell.step(cell, inLo, inHi, first, false)));
        s.apply(ctx -> {
            long key = ctx.get(carryKey);
            long keyHi = ctx.get(carryKeyHi);
            long count = ctx.get(carryCount);
            long slot = fold.remainder(ctx.hash(index));
            long inHi = WideCell.hiWord(keyHi, count);
            long outKey = ctx.execute(evictKey, slot, key, inHi);
            long outHi = ctx.execute(evictHiWord, slot, key, inHi);
            long outCount = WideCell.count(outHi);
            if (outCount == 0) {
                ctx.set(carryKey, 0);
                ctx.set(carryKeyHi, 0);
                ctx.set(carryCount, 0);
            } else if (first || outKey != 0) {
                ctx.set(carryKey, outKey);
                ctx.set(carryKeyHi, WideCell.keyHi(outHi));
                ctx.set(carryCount, outCount);
            }
        });
    }
}
