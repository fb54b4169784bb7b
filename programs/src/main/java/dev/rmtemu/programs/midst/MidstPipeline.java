package dev.rmtemu.programs.midst;

import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.StageContext;

/**
 * MIDST's data plane on one switch: S_in (count-min, r rows) in ingress, S_out of the
 * same shape in egress, a bridged header carrying the counts u_i and indices from
 * ingress to egress, the loss estimate min_i(u_i − v_i) in egress, reactive monitoring
 * driven by probe packets that fetch the queue depth from egress and bring it back to
 * ingress through the recirculation port, and data-plane cleaning with one dirty word
 * per 32 counters.
 *
 * <pre>
 * ingress  0: row hashes → indices, dirty word and bit; monitor flag (1 cell), set by
 *             returning probes: on at depth ≥ h, off below l
 *          1: epoch (1 cell), clean pointer  epoch += 1 when monitoring starts;
 *                                            counted packets restart the pointer, others advance it
 *          2: dirty words × r                counted: set the bit (old bit 0 = counter stale);
 *                                            else zero the word under the clean pointer
 *          3: counters × r                   counted: stale ? 1 : +1 → u_i into the bridged header
 *          4..: min chain                    S_in estimate min_i u_i (bursty flows)
 * egress   0: queue depth (1 cell), clean pointer
 *          4: dirty words × r, 5: counters × r → v_i, 6: d_i = u_i − v_i (saturating)
 *          7..: min chain, last: report header (loss estimate, heavy-loser / bursty flags)
 * </pre>
 * Ingress and egress arrays are declared in their own gress; the engine keeps a copy per
 * pipe and gress, so S_in and S_out never share a register.
 */
public final class MidstPipeline {
    public static final String MONITOR = "midst_monitor";
    public static final String EPOCH = "midst_epoch";
    public static final String IN_CLEAN = "midst_in_clean_ptr";
    public static final String OUT_CLEAN = "midst_out_clean_ptr";
    public static final String QDEPTH = "midst_qdepth";
    /** One probe at a time may recirculate for cleaning: it holds this token. */
    public static final String CLEANER = "midst_cleaner_token";

    /** Probe header kinds. A freshly generated probe carries NONE and enters from a recirculation port. */
    public static final int KIND_NONE = 0;
    public static final int KIND_TO_EGRESS = 1;
    public static final int KIND_TO_INGRESS = 2;
    public static final int KIND_MONITOR_ON = 3;
    public static final int KIND_MONITOR_OFF = 4;
    public static final int KIND_CLEAN_DONE = 5;
    /** The cleaning probe gives up its token (monitoring restarted before cleaning finished); egress drops it. */
    public static final int KIND_RELEASE = 6;

    /** Report flags. */
    public static final int FLAG_HEAVY_LOSER = 1;
    public static final int FLAG_BURSTY = 2;

    private static final int EPOCH_BITS = 16;
    private static final int DEPTH_BITS = 19;
    /*
     * Physical stages are shared by ingress and egress on tofino1 (one stage's SRAM and
     * stateful ALUs serve both), so egress puts its sketch in stages where ingress keeps
     * no state: ingress state in 0..3, egress depth/clean pointer in 0 (with ingress's
     * monitor: 3 ALUs), egress dirty words and counters in 4 and 5.
     */
    private static final int ING_HASH_MONITOR = 0;
    private static final int ING_EPOCH_CLEAN = 1;
    private static final int ING_DIRTY = 2;
    private static final int ING_COUNT = 3;
    private static final int ING_MIN = 4;
    private static final int EG_DEPTH_CLEAN = 0;
    private static final int EG_DIRTY = 4;
    private static final int EG_COUNT = 5;
    private static final int EG_DIFF = 6;
    private static final int EG_MIN = 7;
    /** The cleaner token sits with the first egress min stage: no stateful ALU is used there by either gress. */
    private static final int EG_TOKEN = EG_MIN;

    public final MidstConfig config;
    public final StageProgram program;
    public final FiveTuple tuple;
    /** Bridged header (ingress → egress). */
    public final Field brCounted;
    public final Field brMonitor;
    public final Field brEpoch;
    public final Field brUmin;
    public final Field[] brIndex;
    public final Field[] brU;
    /** Probe header. */
    public final Field probeKind;
    public final Field probeDepth;
    public final Field probeEgressDone;
    public final Field probeCleaning;
    public final Field probeEpoch;
    public final Field probeHolder;
    /** Report header (egress → collector). */
    public final Field repLoss;
    public final Field repFlags;
    public final Field repEpoch;
    public final Field repBurst;

    private final int rows;
    private final int columns;
    /** Cleaning steps per row: dirty words, or counters when cleaning without dirty words. */
    private final int words;
    private final boolean dirty;

    public static String inDirty(int row) {
        return "midst_in_dirty_" + row;
    }

    public static String inCount(int row) {
        return "midst_in_count_" + row;
    }

    public static String outDirty(int row) {
        return "midst_out_dirty_" + row;
    }

    public static String outCount(int row) {
        return "midst_out_count_" + row;
    }

    public MidstPipeline(MidstConfig cfg) {
        this.config = cfg;
        this.rows = cfg.rows();
        this.columns = cfg.columns();
        this.words = cfg.cleaningSteps();
        this.dirty = cfg.dirtyWords();
        ProgramBuilder b = ProgramBuilder.create(MidstProgram.NAME, MidstProgram.DESCRIPTION);
        b.param("rows", rows).param("columns", columns).param("loss_threshold", cfg.lossThreshold())
                .param("burst_threshold", cfg.burstThreshold()).param("high", cfg.highWater()).param("low", cfg.lowWater())
                .param("port", cfg.dataPort()).param("collector", cfg.collectorPort());
        tuple = FiveTuple.declare(b);
        int indexBits = bitsFor(columns);
        brCounted = b.header("midst_br.counted", 1, ParsedField.CARRIED);
        brMonitor = b.header("midst_br.monitor", 1, ParsedField.CARRIED);
        brEpoch = b.header("midst_br.epoch", EPOCH_BITS, ParsedField.CARRIED);
        brUmin = b.header("midst_br.umin", MidstConfig.COUNTER_BITS, ParsedField.CARRIED);
        brIndex = new Field[rows];
        brU = new Field[rows];
        for (int i = 0; i < rows; i++) {
            brIndex[i] = b.header("midst_br.idx" + i, indexBits, ParsedField.CARRIED);
            brU[i] = b.header("midst_br.u" + i, MidstConfig.COUNTER_BITS, ParsedField.CARRIED);
        }
        probeKind = b.header("midst_probe.kind", 8, ParsedField.CARRIED);
        probeDepth = b.header("midst_probe.qdepth", DEPTH_BITS, ParsedField.CARRIED);
        probeEgressDone = b.header("midst_probe.eg_done", 1, ParsedField.CARRIED);
        probeCleaning = b.header("midst_probe.cleaning", 1, ParsedField.CARRIED);
        probeEpoch = b.header("midst_probe.epoch", EPOCH_BITS, ParsedField.CARRIED);
        probeHolder = b.header("midst_probe.holder", 1, ParsedField.CARRIED);
        repLoss = b.header("midst_rep.loss", MidstConfig.COUNTER_BITS, ParsedField.CARRIED);
        repFlags = b.header("midst_rep.flags", 8, ParsedField.CARRIED);
        repEpoch = b.header("midst_rep.epoch", EPOCH_BITS, ParsedField.CARRIED);
        repBurst = b.header("midst_rep.burst", MidstConfig.COUNTER_BITS, ParsedField.CARRIED);
        declareIngress(b, indexBits);
        declareEgress(b, indexBits);
        this.program = b.build();
    }

    static int bitsFor(int values) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(values - 1));
    }

    // ------------------------------------------------------------------ ingress

    private void declareIngress(ProgramBuilder b, int indexBits) {
        Field ingressPort = b.intrinsic(Intrinsic.INGRESS_PORT);
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        Field isProbe = b.metadata(Gress.INGRESS, "midst_ig.is_probe", 1);
        Field monitor = b.metadata(Gress.INGRESS, "midst_ig.monitor", 1);
        Field monitorOld = b.metadata(Gress.INGRESS, "midst_ig.monitor_old", 1);
        Field cleanWord = b.metadata(Gress.INGRESS, "midst_ig.clean_word", 32);
        Field inDone = b.metadata(Gress.INGRESS, "midst_ig.clean_done", 1);
        Field epoch = b.metadata(Gress.INGRESS, "midst_ig.epoch", EPOCH_BITS);
        Field acc = b.metadata(Gress.INGRESS, "midst_ig.min", MidstConfig.COUNTER_BITS);
        Field[] word = new Field[rows];
        Field[] mask = new Field[rows];
        Field[] stale = new Field[rows];
        for (int i = 0; i < rows; i++) {
            word[i] = b.metadata(Gress.INGRESS, "midst_ig.word" + i, bitsFor(config.dirtyWordCount()));
            mask[i] = b.metadata(Gress.INGRESS, "midst_ig.bit" + i, 32);
            stale[i] = b.metadata(Gress.INGRESS, "midst_ig.stale" + i, 1);
        }
        final int dataPort = config.dataPort();
        final int collector = config.collectorPort();
        final long high = config.highWater();
        final long low = config.lowWater();

        // stage 0: row hashes; the monitor flag, which only a returning probe changes (h / l on its queue depth)
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, ING_HASH_MONITOR);
        HashUnit[] h = new HashUnit[rows];
        for (int i = 0; i < rows; i++) {
            h[i] = s0.hash("midst_hash" + i, MidstHashes.row(i), MidstConfig.COUNTER_BITS, tuple.fields());
        }
        RegisterArray monitorReg = s0.register(MONITOR, 32, 1);
        RegisterAction setLevel = s0.action(RegisterAction.on(monitorReg, "water_marks")
                .condition(Operand.IN_LO, CmpOp.GE, Operand.constant(high))
                .condition(Operand.IN_LO, CmpOp.LT, Operand.constant(low))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .updateLo(Predicate.C1, AluOp.SET, Operand.constant(0), Operand.constant(0))
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterAction readMonitor = s0.action(RegisterAction.on(monitorReg, "read")
                .output(RegisterAction.OutputSource.OLD_LO));
        s0.apply(ctx -> {
            boolean probe = PortNumbers.isRecirculation((int) ctx.get(ingressPort));
            ctx.set(isProbe, probe ? 1 : 0);
            if (probe && ctx.get(probeKind) == KIND_TO_INGRESS) {
                long depth = ctx.get(probeDepth);
                long old = ctx.execute(setLevel, 0, depth);
                long now = depth >= high ? 1 : depth < low ? 0 : old;
                ctx.set(monitorOld, old);
                ctx.set(monitor, now);
                ctx.set(brMonitor, now);
                return;
            }
            long m = ctx.execute(readMonitor, 0);
            ctx.set(monitorOld, m);
            ctx.set(monitor, m);
            ctx.set(brMonitor, m);
            ctx.set(brCounted, probe ? 0 : m);
            if (probe) {
                return;
            }
            ctx.set(egressPort, dataPort);
            for (int i = 0; i < rows; i++) {
                long idx = ctx.hash(h[i]) % columns;
                ctx.set(brIndex[i], idx);
                ctx.set(word[i], idx / MidstConfig.COUNTERS_PER_DIRTY_WORD);
                ctx.set(mask[i], 1L << (idx % MidstConfig.COUNTERS_PER_DIRTY_WORD));
            }
        });

        // stage 2: epoch and the ingress clean pointer
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.INGRESS, ING_EPOCH_CLEAN);
        RegisterArray epochReg = s2.register(EPOCH, 32, 1);
        RegisterAction nextEpoch = s2.action(RegisterAction.on(epochReg, "next")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction readEpoch = s2.action(RegisterAction.on(epochReg, "read")
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterArray cleanReg = s2.register(IN_CLEAN, 32, 1);
        RegisterAction[] clean = cleanPointerActions(s2, cleanReg);
        s2.apply(ctx -> {
            long m = ctx.get(monitor);
            boolean started = m == 1 && ctx.get(monitorOld) == 0;
            long e = ctx.execute(started ? nextEpoch : readEpoch, 0);
            ctx.set(epoch, e);
            ctx.set(brEpoch, e);
            if (m == 1) {
                ctx.set(cleanWord, words); // nothing to clean while monitoring
                if (ctx.get(isProbe) == 0) {
                    ctx.execute(clean[0], 0); // a counted packet: all W words need cleaning in the next off period
                }
                return;
            }
            long remaining = ctx.execute(clean[1], 0);
            ctx.set(cleanWord, remaining > 0 ? remaining - 1 : words);
            ctx.set(inDone, remaining <= 1 ? 1 : 0);
        });

        // stage 3: dirty words; a probe's fate is decided here too
        ProgramBuilder.StageBuilder s3 = b.stage(Gress.INGRESS, ING_DIRTY);
        RegisterAction[] mark = new RegisterAction[rows];
        RegisterAction[] zero = new RegisterAction[rows];
        declareDirtyWords(s3, MidstPipeline::inDirty, mark, zero);
        s3.apply(ctx -> {
            boolean counted = ctx.get(brCounted) != 0;
            long cw = ctx.get(cleanWord);
            for (int i = 0; dirty && i < rows; i++) {
                if (counted) {
                    long bit = ctx.get(mask[i]);
                    long old = ctx.execute(mark[i], ctx.get(word[i]), bit);
                    ctx.set(stale[i], (old & bit) == 0 ? 1 : 0);
                } else if (cw < words) {
                    ctx.execute(zero[i], cw);
                }
            }
            if (ctx.get(isProbe) != 0) {
                probeFate(ctx, monitor, monitorOld, epoch, inDone, egressPort, drop, collector);
            }
        });

        // stage 4: counters
        ProgramBuilder.StageBuilder s4 = b.stage(Gress.INGRESS, ING_COUNT);
        RegisterAction[] count = new RegisterAction[rows];
        RegisterAction[] zeroCounter = new RegisterAction[rows];
        for (int i = 0; i < rows; i++) {
            RegisterArray c = s4.register(inCount(i), MidstConfig.COUNTER_BITS, columns);
            count[i] = s4.action(counterUpdate(c));
            zeroCounter[i] = dirty ? null : s4.action(counterZero(c));
        }
        s4.apply(ctx -> {
            if (ctx.get(brCounted) == 0) {
                long cw = ctx.get(cleanWord);
                for (int i = 0; !dirty && cw < words && i < rows; i++) {
                    ctx.execute(zeroCounter[i], cw); // no dirty words: this pass cleans one counter per row
                }
                return;
            }
            for (int i = 0; i < rows; i++) {
                long u = ctx.execute(count[i], ctx.get(brIndex[i]), ctx.get(stale[i]));
                ctx.set(brU[i], u);
                if (rows == 1) {
                    ctx.set(brUmin, u);
                }
            }
        });

        // stages 5..: min_i u_i, one two-input min per stage
        for (int k = 0; k + 1 < rows; k++) {
            final int next = k + 1;
            final boolean first = k == 0;
            final boolean last = next == rows - 1;
            b.stage(Gress.INGRESS, ING_MIN + k).apply(ctx -> {
                if (ctx.get(brCounted) == 0) {
                    return;
                }
                long a = first ? ctx.get(brU[0]) : ctx.get(acc);
                long m = Math.min(a, ctx.get(brU[next]));
                ctx.set(last ? brUmin : acc, m);
            });
        }
    }

    private void probeFate(StageContext ctx, Field monitor, Field monitorOld, Field epoch, Field inDone,
                           Field egressPort, Field drop, int collector) {
        int recirc = PortNumbers.recirculationPort(ctx.pipe());
        long kind = ctx.get(probeKind);
        ctx.set(probeEpoch, ctx.get(epoch));
        if (kind == KIND_NONE) {
            // a fresh probe from the packet generator: fetch the queue depth from egress
            ctx.set(probeKind, KIND_TO_EGRESS);
            ctx.set(egressPort, recirc);
            return;
        }
        long m = ctx.get(monitor);
        long old = ctx.get(monitorOld);
        if (m != old) {
            ctx.set(probeKind, m == 1 ? KIND_MONITOR_ON : KIND_MONITOR_OFF);
            ctx.set(egressPort, collector);
        } else if (m == 0 && (ctx.get(inDone) == 0 || ctx.get(probeEgressDone) == 0)) {
            // cleaning is not finished: keep recirculating (egress lets only the token holder through)
            ctx.set(probeKind, KIND_TO_EGRESS);
            ctx.set(probeCleaning, 1);
            ctx.set(egressPort, recirc);
        } else if (m == 0 && ctx.get(probeHolder) == 1) {
            ctx.set(probeKind, KIND_CLEAN_DONE);
            ctx.set(egressPort, collector);
        } else if (ctx.get(probeHolder) == 1) {
            ctx.set(probeKind, KIND_RELEASE);
            ctx.set(egressPort, recirc);
        } else {
            ctx.set(drop, 1);
        }
    }

    // ------------------------------------------------------------------ egress

    private void declareEgress(ProgramBuilder b, int indexBits) {
        Field egressPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        // depth left behind at dequeue: the last packet of a burst records an empty queue
        Field deqDepth = b.intrinsic(Intrinsic.DEQ_QDEPTH);
        Field cleanWord = b.metadata(Gress.EGRESS, "midst_eg.clean_word", 32);
        Field acc = b.metadata(Gress.EGRESS, "midst_eg.min", MidstConfig.COUNTER_BITS);
        Field[] word = new Field[rows];
        Field[] mask = new Field[rows];
        Field[] stale = new Field[rows];
        Field[] v = new Field[rows];
        Field[] d = new Field[rows];
        for (int i = 0; i < rows; i++) {
            word[i] = b.metadata(Gress.EGRESS, "midst_eg.word" + i, bitsFor(config.dirtyWordCount()));
            mask[i] = b.metadata(Gress.EGRESS, "midst_eg.bit" + i, 32);
            stale[i] = b.metadata(Gress.EGRESS, "midst_eg.stale" + i, 1);
            v[i] = b.metadata(Gress.EGRESS, "midst_eg.v" + i, MidstConfig.COUNTER_BITS);
            d[i] = b.metadata(Gress.EGRESS, "midst_eg.d" + i, MidstConfig.COUNTER_BITS);
        }
        final int dataPort = config.dataPort();
        final long lossT = config.lossThreshold();
        final long burstT = config.burstThreshold();

        // stage 0: queue depth for the probes, egress clean pointer, dirty word and bit from the bridged index
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.EGRESS, EG_DEPTH_CLEAN);
        RegisterArray depthReg = s0.register(QDEPTH, 32, 1);
        RegisterAction recordDepth = s0.action(RegisterAction.on(depthReg, "record")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)));
        RegisterAction readDepth = s0.action(RegisterAction.on(depthReg, "read")
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterArray cleanReg = s0.register(OUT_CLEAN, 32, 1);
        RegisterAction[] clean = cleanPointerActions(s0, cleanReg);
        s0.apply(ctx -> {
            long kind = ctx.get(probeKind);
            boolean probe = kind == KIND_TO_EGRESS;
            if (probe) {
                ctx.set(probeDepth, ctx.execute(readDepth, 0));
                ctx.set(probeKind, KIND_TO_INGRESS);
            } else if (kind != KIND_NONE) {
                return; // a report on its way to the collector
            } else if (ctx.get(egressPort) == dataPort) {
                ctx.execute(recordDepth, 0, ctx.get(deqDepth));
            }
            if (ctx.get(brCounted) != 0) {
                ctx.execute(clean[0], 0);
                ctx.set(cleanWord, words);
                for (int i = 0; i < rows; i++) {
                    long idx = ctx.get(brIndex[i]);
                    ctx.set(word[i], idx / MidstConfig.COUNTERS_PER_DIRTY_WORD);
                    ctx.set(mask[i], 1L << (idx % MidstConfig.COUNTERS_PER_DIRTY_WORD));
                }
            } else if (ctx.get(brMonitor) == 0) {
                long remaining = ctx.execute(clean[1], 0);
                ctx.set(cleanWord, remaining > 0 ? remaining - 1 : words);
                if (probe) {
                    ctx.set(probeEgressDone, remaining <= 1 ? 1 : 0);
                }
            } else {
                ctx.set(cleanWord, words);
            }
        });

        // stage 1: dirty words
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.EGRESS, EG_DIRTY);
        RegisterAction[] mark = new RegisterAction[rows];
        RegisterAction[] zero = new RegisterAction[rows];
        declareDirtyWords(s1, MidstPipeline::outDirty, mark, zero);
        s1.apply(ctx -> {
            if (!dirty || ctx.get(probeKind) > KIND_TO_INGRESS) {
                return;
            }
            boolean counted = ctx.get(brCounted) != 0;
            long cw = ctx.get(cleanWord);
            for (int i = 0; i < rows; i++) {
                if (counted) {
                    long bit = ctx.get(mask[i]);
                    long old = ctx.execute(mark[i], ctx.get(word[i]), bit);
                    ctx.set(stale[i], (old & bit) == 0 ? 1 : 0);
                } else if (cw < words) {
                    ctx.execute(zero[i], cw);
                }
            }
        });

        // stage 2: counters → v_i
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.EGRESS, EG_COUNT);
        RegisterAction[] count = new RegisterAction[rows];
        RegisterAction[] zeroCounter = new RegisterAction[rows];
        for (int i = 0; i < rows; i++) {
            RegisterArray c = s2.register(outCount(i), MidstConfig.COUNTER_BITS, columns);
            count[i] = s2.action(counterUpdate(c));
            zeroCounter[i] = dirty ? null : s2.action(counterZero(c));
        }
        s2.apply(ctx -> {
            long kind = ctx.get(probeKind);
            if (ctx.get(brCounted) == 0 || kind != KIND_NONE) {
                long cw = ctx.get(cleanWord);
                for (int i = 0; !dirty && kind <= KIND_TO_INGRESS && cw < words && i < rows; i++) {
                    ctx.execute(zeroCounter[i], cw);
                }
                return;
            }
            for (int i = 0; i < rows; i++) {
                ctx.set(v[i], ctx.execute(count[i], ctx.get(brIndex[i]), ctx.get(stale[i])));
            }
        });

        // stage 3: d_i = u_i − v_i, saturating at 0 (Tofino ALUs offer saturating subtraction)
        b.stage(Gress.EGRESS, EG_DIFF).apply(ctx -> {
            if (ctx.get(brCounted) == 0 || ctx.get(probeKind) != KIND_NONE) {
                return;
            }
            for (int i = 0; i < rows; i++) {
                ctx.set(d[i], Math.max(0, ctx.get(brU[i]) - ctx.get(v[i])));
            }
        });

        // stages 7..: the minimum of the differences, one two-input min per stage (the first shares
        // its stage with the cleaner token below)
        for (int k = 1; k + 1 < rows; k++) {
            final int step = k;
            b.stage(Gress.EGRESS, EG_MIN + k).apply(ctx -> {
                if (ctx.get(probeKind) == KIND_NONE) {
                    minStep(ctx, acc, d, step);
                }
            });
        }

        // the cleaner token: one probe at a time recirculates for cleaning; it gives the token back
        // when it leaves the loop (cleaning done, a monitoring report, or a release)
        Field egressDrop = b.intrinsic(Intrinsic.EGRESS_DROP_CTL);
        ProgramBuilder.StageBuilder tokenStage = b.stage(Gress.EGRESS, EG_TOKEN);
        RegisterArray token = tokenStage.register(CLEANER, 32, 1);
        RegisterAction acquire = tokenStage.action(RegisterAction.on(token, "acquire")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(0))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterAction release = tokenStage.action(RegisterAction.on(token, "release")
                .updateLo(AluOp.SET, Operand.constant(0), Operand.constant(0)));
        final boolean tokenWithMin = rows > 1;
        tokenStage.apply(ctx -> {
            long kind = ctx.get(probeKind);
            if (kind == KIND_NONE) {
                if (tokenWithMin) {
                    minStep(ctx, acc, d, 0);
                }
                return;
            }
            boolean holder = ctx.get(probeHolder) == 1;
            if (kind == KIND_TO_INGRESS) {
                if (ctx.get(probeCleaning) == 1 && !holder) {
                    if (ctx.execute(acquire, 0) == 0) {
                        ctx.set(probeHolder, 1);
                    } else {
                        ctx.set(egressDrop, 1); // another probe is already cleaning
                    }
                }
            } else if (holder) {
                ctx.execute(release, 0);
                ctx.set(probeHolder, 0);
                if (kind == KIND_RELEASE) {
                    ctx.set(egressDrop, 1);
                }
            }
        });

        // last stage: the report header the collector reads
        final Field estimate = rows == 1 ? d[0] : acc;
        b.stage(Gress.EGRESS, EG_MIN + Math.max(1, rows - 1)).apply(ctx -> {
            if (ctx.get(brCounted) == 0 || ctx.get(probeKind) != KIND_NONE) {
                return;
            }
            long est = ctx.get(estimate);
            long umin = ctx.get(brUmin);
            ctx.set(repLoss, est);
            ctx.set(repEpoch, ctx.get(brEpoch));
            ctx.set(repBurst, umin);
            ctx.set(repFlags, (est >= lossT ? FLAG_HEAVY_LOSER : 0) | (umin >= burstT ? FLAG_BURSTY : 0));
        });
    }

    /** acc := min(k == 0 ? d_0 : acc, d_{k+1}) for a counted data packet. */
    private static void minStep(StageContext ctx, Field acc, Field[] d, int k, Field counted) {
        if (ctx.get(counted) == 0) {
            return;
        }
        long a = k == 0 ? ctx.get(d[0]) : ctx.get(acc);
        ctx.set(acc, Math.min(a, ctx.get(d[k + 1])));
    }

    private void minStep(StageContext ctx, Field acc, Field[] d, int k) {
        minStep(ctx, acc, d, k, brCounted);
    }

    // ------------------------------------------------------------------ register actions

    /**
     * The clean pointer counts the dirty words still to clean (0 at boot: a fresh sketch is
     * clean). [0] restart: := W (a counted packet dirtied the sketch); [1] advance: old > 0 ?
     * −1, returning old (the word to clean is old − 1).
     */
    private RegisterAction[] cleanPointerActions(ProgramBuilder.StageBuilder s, RegisterArray reg) {
        RegisterAction restart = s.action(RegisterAction.on(reg, "restart")
                .updateLo(AluOp.SET, Operand.constant(words), Operand.constant(0)));
        RegisterAction advance = s.action(RegisterAction.on(reg, "advance")
                .condition(Operand.REG_LO, CmpOp.GT, Operand.constant(0))
                .updateLo(Predicate.C0, AluOp.SUB, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.OLD_LO));
        return new RegisterAction[] {restart, advance};
    }

    /** Sets the counter's dirty bit and returns the old word (bit clear: the counter is stale). */
    /** One dirty-word array per row in this stage (when enabled), with its mark and zero actions. */
    private void declareDirtyWords(ProgramBuilder.StageBuilder stage, java.util.function.IntFunction<String> name,
                                   RegisterAction[] mark, RegisterAction[] zero) {
        for (int i = 0; dirty && i < rows; i++) {
            RegisterArray d = stage.register(name.apply(i), 32, words);
            mark[i] = stage.action(dirtyMark(d));
            zero[i] = stage.action(dirtyZero(d));
        }
    }

    private static RegisterAction.Builder dirtyMark(RegisterArray d) {
        return RegisterAction.on(d, "mark")
                .updateLo(AluOp.OR, Operand.REG_LO, Operand.IN_LO)
                .output(RegisterAction.OutputSource.OLD_LO);
    }

    /** Zeroes one dirty word: its 32 counters are logically reset. */
    private static RegisterAction.Builder dirtyZero(RegisterArray d) {
        return RegisterAction.on(d, "clean")
                .updateLo(AluOp.SET, Operand.constant(0), Operand.constant(0));
    }

    /** Cleaning without dirty words: zero the counter itself. */
    private static RegisterAction.Builder counterZero(RegisterArray c) {
        return RegisterAction.on(c, "clean")
                .updateLo(AluOp.SET, Operand.constant(0), Operand.constant(0));
    }

    /** The first write of an interval resets the counter (stale: := 1), later ones add 1. */
    private static RegisterAction.Builder counterUpdate(RegisterArray c) {
        return RegisterAction.on(c, "count")
                .condition(Operand.IN_LO, CmpOp.EQ, Operand.constant(1))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .updateLo(Predicate.NOT_C0, AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO);
    }
}
