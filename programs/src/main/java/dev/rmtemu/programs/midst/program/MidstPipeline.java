package dev.rmtemu.programs.midst.program;

import java.util.function.IntFunction;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

import java.util.List;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.ge;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.le;
import static dev.rmtemu.model.ir.Ir.lt;
import static dev.rmtemu.model.ir.Ir.max;
import static dev.rmtemu.model.ir.Ir.min;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.ne;
import static dev.rmtemu.model.ir.Ir.or;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static dev.rmtemu.model.ir.Ir.shr;
import static dev.rmtemu.model.ir.Ir.sub;
import static dev.rmtemu.model.ir.Ir.xor;

/**
 * MIDST's data plane on one switch, written in the stage-program IR: S_in (count-min, r
 * rows) in ingress, S_out of the same shape in egress, a bridged header carrying the
 * counts u_i, indices, dirty-word indices and bit masks from ingress to egress, the loss
 * estimate min_i(u_i − v_i) in egress, reactive monitoring driven by probe packets that
 * fetch the queue depth from egress and bring it back to ingress through the recirculation
 * port, and data-plane cleaning with one dirty word per 32 counters.
 *
 * <pre>
 * ingress  0: row hashes → index (hash mod c: a mask, c a power of two on tofino1) and bit
 *             position (low 5 hash bits); monitor flag (1 cell), set by returning probes
 *          1: epoch (1 cell), clean pointer  epoch += 1 when monitoring starts;
 *                                            counted packets restart the pointer, others advance it
 *             dirty word index (index >> 5); bit mask 1 << (bits 0-1)
 *          2: bit mask << (bits 2-3)         (tofino1 shifts by constants only: gateways pick the shift)
 *          3: bit mask << (bit 4); a probe's fate
 *          4: dirty words × r                counted: set the bit (old bit 0 = counter stale);
 *                                            else zero the word under the clean pointer
 *          5: counters × r                   counted: stale ? 1 : +1 → u_i into the bridged header
 *          6..: min chain                    S_in estimate min_i u_i (bursty flows)
 * egress   0: queue depth (1 cell), clean pointer
 *          2: dirty words × r, 3: counters × r → v_i, 4: max(u_i, v_i) (a probe: egress cleaning
 *             done?), 5: d_i = max − v_i
 *          6..: min chain (and the cleaner token), last: report header (loss estimate, flags)
 * </pre>
 * <p>Several pipes and queues ({@link MidstConfig#pipes()} P, {@link MidstConfig#queues()} Q, both
 * powers of two): per-flow FIFO order holds per ingress pipe and per queue (the paper's "In-flow
 * FIFO"), so every row is cut into P · Q partitions of c / PQ columns and a packet from ingress
 * pipe i to queue q of egress pipe j counts in S_in of pipe i at (j, q, h) and in S_out of pipe j
 * at (i, q, h): the two cells see exactly the same packets (memory per pipe is unchanged). The
 * monitor flag, epoch and ingress clean pointer are per (j, q) in every ingress pipe, the queue
 * depth per q and the egress clean pointer per (i, q) in every egress pipe, and cleaning zeroes
 * words inside one partition. Pipe i's generator probes (j, q) in turn (the probe's destination
 * names it): ingress i → egress j (recirculation port j: depth, S_out cleaning) → ingress j
 * (transit, no state) → egress i (transit) → ingress i (monitor flag, S_in cleaning, fate); the
 * cleaner token then sits in ingress i per (j, q), in stage 9. The partition offsets take a few
 * more VLIW operations (ingress 1-5: shifts and ORs of the partition onto the hash bits, the S_out
 * index and word bridged from stages 4 and 5; egress 1: the cleaned word's partition offset), and
 * a packet from a pipe beyond P is forwarded without touching state. With P = Q = 1 the program
 * is the one above, statement for statement.
 *
 * A decision on a register action's output is taken one stage after the action (the output
 * reaches the PHV when the stage ends): the clean pointer's remaining count is kept in
 * metadata and compared a stage later. Ingress and egress arrays are declared in their own
 * gress; the engine keeps a copy per pipe and gress, so S_in and S_out never share a register.
 */
public final class MidstPipeline {
    public static final String MONITOR = "midst_monitor";
    /** A scratch cell whose stateful ALU compares a probe's depth with the water marks. */
    public static final String DEPTH_CMP = "midst_depth_cmp";
    /** The comparator's predicate: c0 (depth &gt;= h) alone, c1 (depth &lt; l) alone. */
    static final int LEVEL_HIGH = 0b01;
    static final int LEVEL_LOW = 0b10;
    /** Stage 0 marks a data packet's verdict field with this (a comparator's predicate is at most 0b10). */
    static final int LEVEL_DATA = 0b11;
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
    /**
     * With several pipes: a probe on its way back from egress pipe j to its home ingress pipe i
     * (recirculated into ingress j, which forwards it to pipe i's recirculation port untouched).
     */
    public static final int KIND_TRANSIT = 7;

    /** Report flags. */
    public static final int FLAG_HEAVY_LOSER = 1;
    public static final int FLAG_BURSTY = 2;

    private static final int EPOCH_BITS = MidstHeaders.EPOCH_BITS;
    /*
     * Physical stages are shared by ingress and egress on tofino1 (one stage's SRAM and
     * stateful ALUs serve both), so egress puts its sketch in stages where ingress keeps
     * no state: ingress state in 0, 1, 4 and 5, egress depth/clean pointer in 0 (with
     * ingress's monitor: 3 ALUs), egress dirty words and counters in 2 and 3.
     */
    private static final int ING_HASH_MONITOR = 0;
    private static final int ING_EPOCH_CLEAN = 1;
    private static final int ING_MASK2 = 2;
    private static final int ING_MASK3 = 3;
    private static final int ING_DIRTY = 4;
    private static final int ING_COUNT = 5;
    private static final int ING_MIN = 6;
    private static final int EG_DEPTH_CLEAN = 0;
    private static final int EG_DIRTY = 2;
    private static final int EG_COUNT = 3;
    private static final int EG_DIFF = 4;
    private static final int EG_MIN = 6;
    /** A counter's dirty word is its index >> 5 (32 counters a word). */
    private static final int WORD_SHIFT = Integer.numberOfTrailingZeros(MidstConfig.COUNTERS_PER_DIRTY_WORD);
    private static final int BIT_POSITION_BITS = WORD_SHIFT;
    /** The cleaner token sits with the first egress min stage: no stateful ALU is used there by either gress. */
    private static final int EG_TOKEN = EG_MIN;
    /**
     * With several pipes the token is in the probe's home ingress pipe instead, after the longest min
     * chain (4 rows: stages 6-8); egress keeps no state in that physical stage.
     */
    private static final int ING_TOKEN = ING_MIN + MidstConfig.MAX_ROWS - 1;
    /** A recirculation port's pipe: its low bits ({@link PortNumbers#RECIRCULATION_BASE} is a multiple of 64). */
    private static final int RECIRCULATION_PIPE_MASK = 63;

    public final MidstConfig config;
    public final StageProgram program;
    public final FiveTuple tuple;
    /** Bridged header (ingress → egress). */
    public final Field brCounted;
    public final Field brMonitor;
    public final Field brEpoch;
    public final Field brUmin;
    /** Partition (i, q) of the packet's S_out cells in its egress pipe (null with one partition). */
    public final Field brOutPart;
    public final Field[] brIndex;
    public final Field[] brU;
    /** Dirty word and one-hot bit of each row's counter (with dirty words; null entries without). */
    public final Field[] brWord;
    public final Field[] brMask;
    /** Probe header. */
    public final Field probeKind;
    public final Field probeDepth;
    public final Field probeEgressDone;
    public final Field probeCleaning;
    public final Field probeEpoch;
    public final Field probeHolder;
    /** Ingress pipe whose generator sent the probe (null with one pipe). */
    public final Field probeHome;
    /**
     * A counted packet's loss estimate min_i(u_i − v_i) (egress metadata, in the PHV when the packet
     * leaves); the report header carries it only when egress flags the packet.
     */
    public final Field lossEstimate;
    /** Report header (egress → collector). */
    public final Field repLoss;
    public final Field repFlags;
    public final Field repEpoch;
    public final Field repBurst;
    /** The report header's validity bit; Ethernet's EtherType and the report's (adding the report moves one into the other). */
    public final Field repValid;
    private final Field etherType;
    private final Field repEtherType;

    private final int rows;
    private final int columns;
    /** Cleaning steps per row: dirty words, or counters when cleaning without dirty words. */
    private final int words;
    private final boolean dirty;
    /** P · Q partitions; P pipes, Q queues; bit widths of Q, of a partition's columns and of its cleaning steps. */
    private final int parts;
    private final int pipes;
    private final int queues;
    private final int queueBits;
    private final int partColumnBits;
    /** Cleaning steps of one partition: the clean pointers count these. */
    private final int steps;
    private final int stepBits;
    private final int portBits;

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
        this.parts = cfg.partitions();
        this.pipes = cfg.pipes();
        this.queues = cfg.queues();
        this.queueBits = Integer.numberOfTrailingZeros(queues);
        this.partColumnBits = Integer.numberOfTrailingZeros(cfg.partitionColumns());
        this.steps = cfg.partitionSteps();
        this.stepBits = Integer.numberOfTrailingZeros(steps);
        this.portBits = Integer.numberOfTrailingZeros(cfg.portsPerPipe());
        ProgramBuilder b = ProgramBuilder.create(MidstProgram.NAME, MidstProgram.DESCRIPTION);
        b.param("rows", rows).param("columns", columns).param("loss_threshold", cfg.lossThreshold())
                .param("burst_threshold", cfg.burstThreshold()).param("high", cfg.highWater()).param("low", cfg.lowWater())
                .param("port", cfg.dataPort()).param("collector", cfg.collectorPort());
        if (parts > 1) {
            b.param("pipes", pipes).param("queues", queues).param("ports_per_pipe", cfg.portsPerPipe());
        }
        // the default parse graph with the probe and report headers after Ethernet
        b.parser(EtherTypeShim.spec(List.of(MidstHeaders.PROBE_SHIM, MidstHeaders.REPORT_SHIM)));
        tuple = FiveTuple.declare(b);
        int indexBits = bitsFor(columns);
        brCounted = b.bridged("midst_br.counted", 1);
        brMonitor = b.bridged("midst_br.monitor", 1);
        brEpoch = b.bridged("midst_br.epoch", EPOCH_BITS);
        brUmin = b.bridged("midst_br.umin", MidstConfig.COUNTER_BITS);
        brOutPart = parts > 1 ? b.bridged("midst_br.out_part", bitsFor(parts)) : null;
        brIndex = new Field[rows];
        brU = new Field[rows];
        for (int i = 0; i < rows; i++) {
            brIndex[i] = b.bridged("midst_br.idx" + i, indexBits);
            brU[i] = b.bridged("midst_br.u" + i, MidstConfig.COUNTER_BITS);
        }
        brWord = new Field[rows];
        brMask = new Field[rows];
        for (int i = 0; dirty && i < rows; i++) {
            brWord[i] = b.bridged("midst_br.word" + i, bitsFor(cfg.dirtyWordCount()));
            brMask[i] = b.bridged("midst_br.bit" + i, MidstConfig.COUNTERS_PER_DIRTY_WORD);
        }
        String probe = MidstHeaders.PROBE + ".";
        probeKind = b.header(probe + "kind");
        probeDepth = b.header(probe + "qdepth");
        probeEgressDone = b.header(probe + "eg_done");
        probeCleaning = b.header(probe + "cleaning");
        probeEpoch = b.header(probe + "epoch");
        probeHolder = b.header(probe + "holder");
        probeHome = pipes > 1 ? b.header(probe + "home", bitsFor(pipes)) : null;
        String rep = MidstHeaders.REPORT + ".";
        repLoss = b.header(rep + "loss");
        repFlags = b.header(rep + "flags");
        repEpoch = b.header(rep + "epoch");
        repBurst = b.header(rep + "burst");
        repValid = b.valid(MidstHeaders.REPORT);
        etherType = b.header("ethernet.ether_type");
        repEtherType = b.header(MidstHeaders.REPORT_SHIM.nextField());
        declareIngress(b, indexBits);
        lossEstimate = declareEgress(b, indexBits);
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
        Field monitorOld = b.metadata(Gress.INGRESS, "midst_ig.monitor_old", 1);
        Field levelCmp = b.metadata(Gress.INGRESS, "midst_ig.level_cmp", 2);
        Field cleanWord = b.metadata(Gress.INGRESS, "midst_ig.clean_word", 32);
        Field remaining = b.metadata(Gress.INGRESS, "midst_ig.clean_left", 32);
        Field acc = b.metadata(Gress.INGRESS, "midst_ig.min", MidstConfig.COUNTER_BITS);
        Field[] bit = new Field[rows];
        Field[] fresh = new Field[rows];
        for (int i = 0; i < rows; i++) {
            bit[i] = b.metadata(Gress.INGRESS, "midst_ig.bitpos" + i, BIT_POSITION_BITS);
            fresh[i] = b.metadata(Gress.INGRESS, "midst_ig.fresh" + i, MidstConfig.COUNTER_BITS);
        }
        Partitioning pt = parts > 1 ? new Partitioning(b, indexBits) : null;
        final int dataPort = config.dataPort();
        final int collector = config.collectorPort();
        final long high = config.highWater();
        final long low = config.lowWater();
        // the per-queue state's cell: partition (j, q), the destination's low bits (a probe's destination names
        // the queue it asks about); one cell when there is one partition
        final Expr part = parts > 1 ? and(read(tuple.dst()), constant(parts - 1)) : constant(0);

        // stage 0: row hashes → counter index and bit position; the monitor flag, which only a
        // returning probe changes (h / l on its queue depth)
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, ING_HASH_MONITOR);
        HashUnit[] h = new HashUnit[rows];
        for (int i = 0; i < rows; i++) {
            h[i] = s0.hash("midst_hash" + i, MidstHashes.row(i), MidstConfig.COUNTER_BITS, tuple.fields());
        }
        RegisterArray monitorReg = s0.register(MONITOR, 32, parts);
        RegisterAction setLevel = s0.action(RegisterAction.on(monitorReg, "water_marks")
                .condition(Operand.IN_LO, CmpOp.GE, Operand.constant(high))
                .condition(Operand.IN_LO, CmpOp.LT, Operand.constant(low))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .updateLo(Predicate.C1, AluOp.SET, Operand.constant(0), Operand.constant(0))
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterAction readMonitor = s0.action(RegisterAction.on(monitorReg, "read")
                .output(RegisterAction.OutputSource.OLD_LO));
        // the water marks' verdict on the probe's depth for the gateways of stage 1: a 19-bit depth
        // against h or l is past a Tofino gateway's 12 range bits (bf-p4c mau/gateway.cpp), and the
        // monitor's stateful ALU has one output (its old level), so a second ALU on a scratch cell
        // repeats the two comparisons and outputs their predicate (LEVEL_HIGH, LEVEL_LOW or 0)
        RegisterArray depthCmpReg = s0.register(DEPTH_CMP, 32, 1);
        RegisterAction depthCmp = s0.action(RegisterAction.on(depthCmpReg, "water_marks")
                .condition(Operand.IN_LO, CmpOp.GE, Operand.constant(high))
                .condition(Operand.IN_LO, CmpOp.LT, Operand.constant(low))
                .output(RegisterAction.OutputSource.PREDICATE));
        Consumer<Block> newProbe = fp -> {
            fp.execute(readMonitor, part)
                    .set(monitorOld, output(readMonitor))
                    .set(brMonitor, output(readMonitor));
            if (pipes > 1) {
                // a fresh probe entered from its generator's pipe: that is its home
                fp.when(eq(read(probeKind), constant(KIND_NONE)),
                        gen -> gen.set(probeHome, and(read(ingressPort), constant(RECIRCULATION_PIPE_MASK)))
                                .set(pt.inPipe, and(read(ingressPort), constant(RECIRCULATION_PIPE_MASK))),
                        again -> again.set(pt.inPipe, read(probeHome)));
            }
        };
        s0.body(code -> {
            code.when(ge(read(ingressPort), constant(PortNumbers.RECIRCULATION_BASE)),
                    probe -> probe.set(isProbe, 1).when(eq(read(probeKind), constant(KIND_TO_INGRESS)),
                            back -> {
                                back.execute(setLevel, part, read(probeDepth))
                                        .set(monitorOld, output(setLevel))
                                        // the level kept unless stage 1 sees the water marks crossed
                                        .set(brMonitor, output(setLevel))
                                        .execute(depthCmp, constant(0), read(probeDepth))
                                        .set(levelCmp, output(depthCmp));
                                if (pipes > 1) {
                                    back.set(pt.inPipe, read(probeHome));
                                }
                            },
                            other -> {
                                if (pipes > 1) {
                                    // passing through egress pipe j's ingress on its way home: no state is touched
                                    other.when(eq(read(probeKind), constant(KIND_TRANSIT)),
                                            transit -> transit.set(pt.transit, 1).set(brMonitor, 1), newProbe);
                                } else {
                                    newProbe.accept(other);
                                }
                            }),
                    data -> {
                        Consumer<Block> counted = in -> {
                            in.execute(readMonitor, part)
                                    .set(monitorOld, output(readMonitor))
                                    .set(brMonitor, output(readMonitor))
                                    .set(brCounted, output(readMonitor))
                                    .set(levelCmp, LEVEL_DATA);
                            if (pipes == 1) {
                                in.set(egressPort, dataPort);
                            }
                            for (int i = 0; i < rows; i++) {
                                // columns is a power of two on tofino1: the index is a mask of the hash bits;
                                // a multiple of 32, so the bit position is the hash's low 5 bits either way
                                in.set(parts > 1 ? pt.hashIndex[i] : brIndex[i],
                                                mod(hash(h[i]), constant(parts > 1 ? config.partitionColumns() : columns)))
                                        .set(bit[i], and(hash(h[i]), constant(MidstConfig.COUNTERS_PER_DIRTY_WORD - 1)));
                            }
                            if (pipes > 1) {
                                // ingress pipe i: the port number shifted
                                in.set(pt.inPipe, shr(read(ingressPort), constant(portBits)));
                            }
                        };
                        if (pipes > 1) {
                            data.set(egressPort, dataPort);
                        }
                        if (queues > 1) {
                            data.set(pt.qid, and(read(tuple.dst()), constant(queues - 1)));
                        }
                        if (pipes > 1) {
                            // egress pipe j's bits; a packet from a pipe beyond P has no partition: it is forwarded
                            // like a probe in transit, neither counted nor cleaning, and touches no state
                            data.set(pt.outPipe, and(read(tuple.dst()), constant((pipes - 1) << queueBits)))
                                    .when(lt(read(ingressPort), constant(pipes * config.portsPerPipe())), counted,
                                            outside -> outside.set(pt.transit, 1).set(brMonitor, 1));
                        } else {
                            counted.accept(data);
                        }
                    });
            if (parts > 1) {
                code.set(pt.part, part);
                if (queues > 1) {
                    code.set(pt.queue, and(read(tuple.dst()), constant(queues - 1)));
                }
            }
        });

        // stage 1: epoch and the ingress clean pointer; dirty word index, first step of the bit mask
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, ING_EPOCH_CLEAN);
        RegisterArray epochReg = s1.register(EPOCH, 32, parts);
        RegisterAction nextEpoch = s1.action(RegisterAction.on(epochReg, "next")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction readEpoch = s1.action(RegisterAction.on(epochReg, "read")
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterArray cleanReg = s1.register(IN_CLEAN, 32, parts);
        RegisterAction[] clean = cleanPointerActions(s1, cleanReg);
        // nothing to clean while monitoring
        Consumer<Block> started = c -> c.execute(nextEpoch, part).set(brEpoch, output(nextEpoch)).set(cleanWord, steps);
        Consumer<Block> going = c -> c.execute(readEpoch, part).set(brEpoch, output(readEpoch)).set(cleanWord, steps);
        // a counted packet: all words of the partition need cleaning in the next off period
        Consumer<Block> goingCounted = c -> going.accept(c.execute(clean[0], part));
        Consumer<Block> off = c -> c.execute(readEpoch, part).set(brEpoch, output(readEpoch))
                        .execute(clean[1], part)
                        .set(remaining, output(clean[1]))
                        // the word to clean is remaining − 1; none left wraps to 2^32 − 1, past every word
                        .set(cleanWord, sub(output(clean[1]), constant(1)));
        // the level a packet entered with (stage 0's monitor output), and a returning probe's verdict on
        // its depth (stage 0's comparator): a probe over h starts monitoring, one under l stops it; a
        // data packet (verdict LEVEL_DATA) while monitoring marks its words dirty
        Consumer<Block> pointers = code -> code.when(eq(read(monitorOld), constant(1)),
                wasOn -> wasOn.when(eq(read(levelCmp), constant(LEVEL_LOW)), down -> off.accept(down.set(brMonitor, 0)),
                        stay -> stay.when(eq(read(levelCmp), constant(LEVEL_DATA)), goingCounted, going)),
                wasOff -> wasOff.when(eq(read(levelCmp), constant(LEVEL_HIGH)), up -> started.accept(up.set(brMonitor, 1)), off));
        s1.body(code -> {
            if (pipes > 1) {
                code.when(eq(read(pt.transit), constant(0)), pointers, transit -> transit.set(cleanWord, steps));
            } else {
                pointers.accept(code);
            }
            if (dirty && parts == 1) {
                for (int i = 0; i < rows; i++) {
                    code.set(brWord[i], shr(read(brIndex[i]), constant(WORD_SHIFT)));
                }
            }
            if (dirty) {
                maskSteps(code, bit, 0);
            }
            if (parts > 1) {
                // S_in's partition (j, q) starts at (j, q) << log2(c / PQ); its words at (j, q) << log2(steps)
                code.set(pt.inShift, shl(read(pt.part), constant(partColumnBits)))
                        .set(pt.stepShift, shl(read(pt.part), constant(stepBits)));
            }
            if (pipes > 1) {
                code.set(pt.inPipeShift, shl(read(pt.inPipe), constant(queueBits)))
                        .set(pt.routePipe, shr(read(pt.part), constant(queueBits)));
                int up = portBits - queueBits;
                code.when(eq(read(isProbe), constant(0)), d -> d.set(pt.outPortShift,
                        up >= 0 ? shl(read(pt.outPipe), constant(up)) : shr(read(pt.outPipe), constant(-up))));
            }
        });

        // stages 2 and 3: the rest of the bit mask (no shift by a run-time amount on tofino1: three
        // stages of gateways on the bit position, each shifting by a constant); a probe's fate
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.INGRESS, ING_MASK2);
        ProgramBuilder.StageBuilder s3 = b.stage(Gress.INGRESS, ING_MASK3);
        s2.body(code -> {
            // a report header from an upstream MIDST switch goes (setInvalid, Ethernet's EtherType back): this
            // switch's egress adds its own, and only that reaches its collector
            code.when(eq(read(repValid), constant(1)), strip -> strip.set(repValid, 0).set(etherType, read(repEtherType)));
            if (dirty) {
                maskSteps(code, bit, 1);
            }
            if (parts > 1) {
                // S_in index (j, q, h); S_out's partition (i, q); the word under the clean pointer
                for (int i = 0; i < rows; i++) {
                    code.set(pt.inIndex[i], or(read(pt.hashIndex[i]), read(pt.inShift)));
                }
                code.set(brOutPart, pipes > 1 ? (queues > 1 ? or(read(pt.inPipeShift), read(pt.queue)) : read(pt.inPipeShift))
                        : read(pt.queue));
                code.set(pt.cleanAt, or(read(cleanWord), read(pt.stepShift)));
            }
            if (pipes > 1) {
                code.set(pt.route, or(read(pt.routePipe), constant(PortNumbers.RECIRCULATION_BASE)));
                code.when(eq(read(isProbe), constant(0)), d -> d.set(egressPort, or(read(pt.outPortShift), constant(dataPort))));
            }
        });
        s3.body(code -> {
            if (dirty) {
                maskSteps(code, bit, 2);
            }
            if (parts > 1) {
                for (int i = 0; dirty && i < rows; i++) {
                    code.set(pt.inWord[i], shr(read(pt.inIndex[i]), constant(WORD_SHIFT)));
                }
                code.set(pt.outShift, shl(read(brOutPart), constant(partColumnBits)));
            }
            code.when(eq(read(isProbe), constant(1)),
                    probe -> probeFate(probe, ingressPort, egressPort, drop, monitorOld, remaining, collector, pt));
        });

        // stage 4: dirty words
        ProgramBuilder.StageBuilder s4 = b.stage(Gress.INGRESS, ING_DIRTY);
        RegisterAction[] mark = new RegisterAction[rows];
        RegisterAction[] zero = new RegisterAction[rows];
        declareDirtyWords(s4, MidstPipeline::inDirty, mark, zero);
        Field[] inWords = parts > 1 ? pt.inWord : brWord;
        Field cleanAt = parts > 1 ? pt.cleanAt : cleanWord;
        s4.body(code -> {
            if (dirty) {
                code.when(eq(read(brCounted), constant(1)),
                        counted -> markDirty(counted, mark, fresh, inWords),
                        other -> other.when(lt(read(cleanWord), constant(steps)), c -> cleanDirty(c, zero, cleanAt)));
            }
            if (parts > 1) {
                // the S_out index (i, q, h) travels to egress
                for (int i = 0; i < rows; i++) {
                    code.set(brIndex[i], or(read(pt.hashIndex[i]), read(pt.outShift)));
                }
            }
        });

        // stage 5: counters → u_i
        ProgramBuilder.StageBuilder s5 = b.stage(Gress.INGRESS, ING_COUNT);
        RegisterAction[] count = new RegisterAction[rows];
        RegisterAction[] zeroCounter = new RegisterAction[rows];
        for (int i = 0; i < rows; i++) {
            RegisterArray c = s5.register(inCount(i), MidstConfig.COUNTER_BITS, columns);
            count[i] = s5.action(counterUpdate(c));
            zeroCounter[i] = dirty ? null : s5.action(counterZero(c));
        }
        s5.body(code -> {
            code.when(eq(read(brCounted), constant(1)),
                    counted -> {
                        for (int i = 0; i < rows; i++) {
                            Expr index = parts > 1 ? mod(read(pt.inIndex[i]), constant(columns)) : rowIndex(i);
                            counted.execute(count[i], index, dirty ? read(fresh[i]) : constant(1))
                                    .set(brU[i], output(count[i]));
                            if (rows == 1) {
                                counted.set(brUmin, output(count[i]));
                            }
                        }
                    },
                    // no dirty words: this pass cleans one counter per row
                    other -> {
                        if (!dirty) {
                            other.when(lt(read(cleanWord), constant(steps)), c -> cleanDirty(c, zeroCounter, cleanAt));
                        }
                    });
            if (parts > 1 && dirty) {
                for (int i = 0; i < rows; i++) {
                    code.set(brWord[i], shr(read(brIndex[i]), constant(WORD_SHIFT)));
                }
            }
        });

        // stages 6..: min_i u_i, one two-input min per stage
        for (int k = 0; k + 1 < rows; k++) {
            Expr a = k == 0 ? read(brU[0]) : read(acc);
            Field dest = k + 2 == rows ? brUmin : acc;
            Field next = brU[k + 1];
            b.stage(Gress.INGRESS, ING_MIN + k).body(code -> code.when(eq(read(brCounted), constant(1)),
                    counted -> counted.set(dest, min(a, read(next)))));
        }
        if (pipes > 1) {
            ingressToken(b, pt, drop, part);
        }
    }

    /**
     * With several pipes the cleaner token of partition (j, q) is in the probe's home ingress pipe
     * (a probe leaves the cleaning loop there, and its report may leave through any pipe's egress):
     * a probe that goes round again for cleaning takes it (or is dropped: another probe holds it), a
     * holder that leaves the loop gives it back; a release needs no further trip.
     */
    private void ingressToken(ProgramBuilder b, Partitioning pt, Field drop, Expr part) {
        ProgramBuilder.StageBuilder st = b.stage(Gress.INGRESS, ING_TOKEN);
        RegisterArray token = st.register(CLEANER, 32, parts);
        RegisterAction acquire = st.action(acquireToken(token));
        RegisterAction release = st.action(releaseToken(token));
        st.body(code -> code.when(eq(read(probeKind), constant(KIND_TO_EGRESS)),
                going -> going.when(eq(read(probeCleaning), constant(1)), cleaning -> cleaning.when(eq(read(probeHolder), constant(0)),
                        free -> free.execute(acquire, part).set(probeHolder, output(acquire))
                                .set(drop, xor(output(acquire), constant(1))))),
                leaving -> leaving.when(ge(read(probeKind), constant(KIND_MONITOR_ON)), report -> report.when(
                        lt(read(probeKind), constant(KIND_TRANSIT)), left -> left.when(eq(read(probeHolder), constant(1)),
                                holder -> holder.execute(release, part).set(probeHolder, 0)
                                        .when(eq(read(probeKind), constant(KIND_RELEASE)), r -> r.set(drop, 1)))))));
    }

    /** Fields of the partitioned layout (P · Q > 1). */
    private final class Partitioning {
        final Field part;
        final Field queue;
        final Field qid;
        final Field inPipe;
        final Field outPipe;
        final Field transit;
        final Field inShift;
        final Field stepShift;
        final Field inPipeShift;
        final Field routePipe;
        final Field route;
        final Field outPortShift;
        final Field outShift;
        final Field cleanAt;
        final Field[] hashIndex = new Field[rows];
        final Field[] inIndex = new Field[rows];
        final Field[] inWord = new Field[rows];

        Partitioning(ProgramBuilder b, int indexBits) {
            int partBits = bitsFor(parts);
            part = b.metadata(Gress.INGRESS, "midst_ig.part", partBits);
            queue = queues > 1 ? b.metadata(Gress.INGRESS, "midst_ig.queue", queueBits) : null;
            qid = queues > 1 ? b.intrinsic(Intrinsic.QID) : null;
            boolean multi = pipes > 1;
            inPipe = multi ? b.metadata(Gress.INGRESS, "midst_ig.in_pipe", 9) : null;
            outPipe = multi ? b.metadata(Gress.INGRESS, "midst_ig.out_pipe", partBits) : null;
            transit = multi ? b.metadata(Gress.INGRESS, "midst_ig.transit", 1) : null;
            inPipeShift = multi ? b.metadata(Gress.INGRESS, "midst_ig.in_pipe_shift", partBits) : null;
            routePipe = multi ? b.metadata(Gress.INGRESS, "midst_ig.route_pipe", partBits) : null;
            route = multi ? b.metadata(Gress.INGRESS, "midst_ig.route", 9) : null;
            outPortShift = multi ? b.metadata(Gress.INGRESS, "midst_ig.out_port_shift", 9) : null;
            inShift = b.metadata(Gress.INGRESS, "midst_ig.in_shift", indexBits);
            stepShift = b.metadata(Gress.INGRESS, "midst_ig.step_shift", 32);
            outShift = b.metadata(Gress.INGRESS, "midst_ig.out_shift", indexBits);
            cleanAt = b.metadata(Gress.INGRESS, "midst_ig.clean_at", 32);
            for (int i = 0; i < rows; i++) {
                hashIndex[i] = b.metadata(Gress.INGRESS, "midst_ig.hidx" + i, indexBits);
                inIndex[i] = b.metadata(Gress.INGRESS, "midst_ig.in_idx" + i, indexBits);
                inWord[i] = dirty ? b.metadata(Gress.INGRESS, "midst_ig.in_word" + i, indexBits) : null;
            }
        }
    }

    /**
     * One stage of the one-hot mask 1 << bitpos, built by gateways on the bit position and
     * shifts by constants: step 0 sets 1 << (bits 0-1), step 1 shifts by bits 2-3, step 2 by bit 4.
     */
    private void maskSteps(Block code, Field[] bit, int step) {
        for (int i = 0; i < rows; i++) {
            Field mask = brMask[i];
            Field pos = bit[i];
            switch (step) {
                case 0 -> code.when(eq(and(read(pos), constant(3)), constant(0)), x -> x.set(mask, 1),
                        n0 -> n0.when(eq(and(read(pos), constant(3)), constant(1)), x -> x.set(mask, 2),
                                n1 -> n1.when(eq(and(read(pos), constant(3)), constant(2)), x -> x.set(mask, 4),
                                        x -> x.set(mask, 8))));
                case 1 -> code.when(eq(and(read(pos), constant(12)), constant(4)), x -> x.set(mask, shl(read(mask), constant(4))),
                        n4 -> n4.when(eq(and(read(pos), constant(12)), constant(8)), x -> x.set(mask, shl(read(mask), constant(8))),
                                n8 -> n8.when(eq(and(read(pos), constant(12)), constant(12)),
                                        x -> x.set(mask, shl(read(mask), constant(12))))));
                default -> code.when(ne(and(read(pos), constant(16)), constant(0)), x -> x.set(mask, shl(read(mask), constant(16))));
            }
        }
    }

    /**
     * The bridged index of row {@code i}, folded onto the row (a mask when c is a power of two,
     * so free; it tells the compiler the index's range when c is not).
     */
    private Expr rowIndex(int i) {
        return mod(read(brIndex[i]), constant(columns));
    }

    /** Sets each row's dirty bit; {@code fresh} gets the old word ANDed with the bit: 0 when the counter is stale. */
    private void markDirty(Block code, RegisterAction[] mark, Field[] fresh, Field[] word) {
        for (int i = 0; i < rows; i++) {
            code.execute(mark[i], mod(read(word[i]), constant(config.dirtyWordCount())), read(brMask[i]))
                    .set(fresh[i], and(output(mark[i]), read(brMask[i])));
        }
    }

    /** Zeroes the cell under the clean pointer in every row (a dirty word, or a counter without dirty words). */
    private void cleanDirty(Block code, RegisterAction[] zero, Field cleanWord) {
        for (int i = 0; i < rows; i++) {
            // the gateway keeps the pointer below W; the fold only tells the compiler the index's range
            code.execute(zero[i], mod(read(cleanWord), constant(words)));
        }
    }

    /**
     * A probe's next trip: a fresh one fetches the queue depth from egress; a returning one
     * reports a change of the monitor flag, keeps recirculating while cleaning is not
     * finished, reports a finished cleaning, or gives its cleaner token back. With one pipe a
     * probe entered from its pipe's recirculation port, so that port is its own ingress port
     * and its way to egress; with several it goes to the recirculation port of the egress pipe
     * j it asks about, and a probe in transit goes on to its home pipe's.
     */
    private void probeFate(Block code, Field ingressPort, Field egressPort, Field drop, Field monitorOld, Field remaining,
                           int collector, Partitioning pt) {
        Expr toEgress = pipes > 1 ? read(pt.route) : read(ingressPort);
        Consumer<Block> keepCleaning = c -> c.set(probeKind, KIND_TO_EGRESS).set(probeCleaning, 1)
                .set(egressPort, toEgress);
        Consumer<Block> fate = f -> f.set(probeEpoch, read(brEpoch)).when(eq(read(probeKind), constant(KIND_NONE)),
                fresh -> fresh.set(probeKind, KIND_TO_EGRESS).set(egressPort, toEgress),
                back -> back.when(ne(read(brMonitor), read(monitorOld)),
                        changed -> changed.set(egressPort, collector).when(eq(read(brMonitor), constant(1)),
                                on -> on.set(probeKind, KIND_MONITOR_ON), off -> off.set(probeKind, KIND_MONITOR_OFF)),
                        same -> same.when(eq(read(brMonitor), constant(0)),
                                idle -> idle.when(le(read(remaining), constant(1)),
                                        inDone -> inDone.when(eq(read(probeEgressDone), constant(0)), keepCleaning,
                                                both -> both.when(eq(read(probeHolder), constant(1)),
                                                        done -> done.set(probeKind, KIND_CLEAN_DONE).set(egressPort, collector),
                                                        extra -> extra.set(drop, 1))),
                                        keepCleaning),
                                monitoring -> monitoring.when(eq(read(probeHolder), constant(1)),
                                        release -> release.set(probeKind, KIND_RELEASE).set(egressPort, toEgress),
                                        extra -> extra.set(drop, 1)))));
        if (pipes > 1) {
            code.when(eq(read(pt.transit), constant(1)),
                    transit -> transit.set(egressPort, or(read(probeHome), constant(PortNumbers.RECIRCULATION_BASE))), fate);
        } else {
            fate.accept(code);
        }
    }

    // ------------------------------------------------------------------ egress

    /** Declares egress; returns the field that holds a counted packet's loss estimate min_i(u_i − v_i) in its last stage. */
    private Field declareEgress(ProgramBuilder b, int indexBits) {
        Field egressPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        // depth left behind at dequeue: the last packet of a burst records an empty queue
        Field deqDepth = b.intrinsic(Intrinsic.DEQ_QDEPTH);
        Field egressDrop = b.intrinsic(Intrinsic.EGRESS_DROP_CTL);
        Field egressQid = queues > 1 ? b.intrinsic(Intrinsic.EGRESS_QID) : null;
        Field cleanWord = b.metadata(Gress.EGRESS, "midst_eg.clean_word", 32);
        // with partitions: the first word of S_out partition (i, q), and the word under the clean pointer
        Field stepShift = parts > 1 ? b.metadata(Gress.EGRESS, "midst_eg.step_shift", 32) : null;
        Field cleanAt = parts > 1 ? b.metadata(Gress.EGRESS, "midst_eg.clean_at", 32) : cleanWord;
        Expr outPart = parts > 1 ? mod(read(brOutPart), constant(parts)) : constant(0);
        Field remaining = b.metadata(Gress.EGRESS, "midst_eg.clean_left", 32);
        Field acc = b.metadata(Gress.EGRESS, "midst_eg.min", MidstConfig.COUNTER_BITS);
        Field[] fresh = new Field[rows];
        Field[] v = new Field[rows];
        Field[] t = new Field[rows];
        Field[] d = new Field[rows];
        for (int i = 0; i < rows; i++) {
            fresh[i] = b.metadata(Gress.EGRESS, "midst_eg.fresh" + i, MidstConfig.COUNTER_BITS);
            v[i] = b.metadata(Gress.EGRESS, "midst_eg.v" + i, MidstConfig.COUNTER_BITS);
            t[i] = b.metadata(Gress.EGRESS, "midst_eg.max" + i, MidstConfig.COUNTER_BITS);
            d[i] = b.metadata(Gress.EGRESS, "midst_eg.d" + i, MidstConfig.COUNTER_BITS);
        }
        final int dataPort = config.dataPort();
        final long lossT = config.lossThreshold();
        final long burstT = config.burstThreshold();

        // stage 0: queue depth for the probes (one cell per queue), egress clean pointer (one per partition (i, q))
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.EGRESS, EG_DEPTH_CLEAN);
        RegisterArray depthReg = s0.register(QDEPTH, 32, queues);
        RegisterAction recordDepth = s0.action(RegisterAction.on(depthReg, "record")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)));
        RegisterAction readDepth = s0.action(RegisterAction.on(depthReg, "read")
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterArray cleanReg = s0.register(OUT_CLEAN, 32, parts);
        RegisterAction[] clean = cleanPointerActions(s0, cleanReg);
        Consumer<Block> advanceOrHold = c -> c.when(eq(read(brMonitor), constant(0)),
                off -> off.execute(clean[1], outPart).set(remaining, output(clean[1]))
                        .set(cleanWord, sub(output(clean[1]), constant(1))),
                on -> on.set(cleanWord, steps));
        // a probe asks about the queue its destination names; a data packet records its own queue's depth
        Expr probeQueue = queues > 1 ? and(read(tuple.dst()), constant(queues - 1)) : constant(0);
        Expr dataQueue = queues > 1 ? and(read(egressQid), constant(queues - 1)) : constant(0);
        // the monitored port: one, or the same port number of every pipe
        Condition monitoredPort = pipes > 1
                ? eq(and(read(egressPort), constant(config.portsPerPipe() - 1)), constant(dataPort))
                : eq(read(egressPort), constant(dataPort));
        s0.body(code -> {
            code.when(eq(read(probeKind), constant(KIND_TO_EGRESS)),
                    probe -> {
                        probe.execute(readDepth, probeQueue).set(probeDepth, output(readDepth)).set(probeKind, KIND_TO_INGRESS);
                        advanceOrHold.accept(probe);
                    },
                    // anything but a data packet is a report on its way to the collector
                    other -> other.when(eq(read(probeKind), constant(KIND_NONE)), data -> data
                            .when(monitoredPort, port -> port.execute(recordDepth, dataQueue, read(deqDepth)))
                            .when(eq(read(brCounted), constant(1)),
                                    counted -> counted.execute(clean[0], outPart).set(cleanWord, steps),
                                    advanceOrHold)));
            if (parts > 1) {
                code.set(stepShift, shl(read(brOutPart), constant(stepBits)));
            }
        });
        if (parts > 1) {
            b.stage(Gress.EGRESS, EG_DEPTH_CLEAN + 1).body(code -> code.set(cleanAt, or(read(cleanWord), read(stepShift))));
        }

        // stage 2: dirty words (a counted packet is always a data packet)
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.EGRESS, EG_DIRTY);
        RegisterAction[] mark = new RegisterAction[rows];
        RegisterAction[] zero = new RegisterAction[rows];
        declareDirtyWords(s2, MidstPipeline::outDirty, mark, zero);
        s2.body(code -> {
            if (dirty) {
                code.when(eq(read(brCounted), constant(1)),
                        counted -> markDirty(counted, mark, fresh, brWord),
                        other -> other.when(le(read(probeKind), constant(KIND_TO_INGRESS)),
                                pass -> pass.when(lt(read(cleanWord), constant(steps)), c -> cleanDirty(c, zero, cleanAt))));
            }
        });

        // stage 3: counters → v_i
        ProgramBuilder.StageBuilder s3 = b.stage(Gress.EGRESS, EG_COUNT);
        RegisterAction[] count = new RegisterAction[rows];
        RegisterAction[] zeroCounter = new RegisterAction[rows];
        for (int i = 0; i < rows; i++) {
            RegisterArray c = s3.register(outCount(i), MidstConfig.COUNTER_BITS, columns);
            count[i] = s3.action(counterUpdate(c));
            zeroCounter[i] = dirty ? null : s3.action(counterZero(c));
        }
        s3.body(code -> code.when(eq(read(brCounted), constant(1)),
                counted -> {
                    for (int i = 0; i < rows; i++) {
                        counted.execute(count[i], rowIndex(i), dirty ? read(fresh[i]) : constant(1))
                                .set(v[i], output(count[i]));
                    }
                },
                other -> {
                    if (!dirty) {
                        other.when(le(read(probeKind), constant(KIND_TO_INGRESS)),
                                pass -> pass.when(lt(read(cleanWord), constant(steps)), c -> cleanDirty(c, zeroCounter, cleanAt)));
                    }
                }));

        // stages 4 and 5: d_i = u_i − v_i saturating at 0, as max(u_i, v_i) − v_i (one ALU operation a stage)
        // (stage 4 also tells a returning probe whether egress has finished cleaning: its gateways
        // share the physical stage with ingress's dirty words, which need few)
        b.stage(Gress.EGRESS, EG_DIFF).body(code -> code.when(eq(read(brCounted), constant(1)),
                counted -> {
                    for (int i = 0; i < rows; i++) {
                        counted.set(t[i], max(read(brU[i]), read(v[i])));
                    }
                },
                other -> other.when(eq(read(probeKind), constant(KIND_TO_INGRESS)),
                        probe -> probe.when(eq(read(brMonitor), constant(0)),
                                off -> off.when(le(read(remaining), constant(1)), done -> done.set(probeEgressDone, 1),
                                        notDone -> notDone.set(probeEgressDone, 0))))));
        b.stage(Gress.EGRESS, EG_DIFF + 1).body(code -> code.when(eq(read(brCounted), constant(1)), counted -> {
            for (int i = 0; i < rows; i++) {
                counted.set(d[i], sub(read(t[i]), read(v[i])));
            }
        }));

        // stages 7..: the minimum of the differences, one two-input min per stage (the first shares
        // its stage with the cleaner token below)
        for (int k = 1; k + 1 < rows; k++) {
            int step = k;
            b.stage(Gress.EGRESS, EG_MIN + k).body(code -> code.when(eq(read(brCounted), constant(1)),
                    counted -> counted.set(acc, min(read(acc), read(d[step + 1])))));
        }

        // the cleaner token: one probe at a time recirculates for cleaning; it gives the token back
        // when it leaves the loop (cleaning done, a monitoring report, or a release)
        // (with several pipes the token is in the probe's home ingress pipe: see ingressToken)
        ProgramBuilder.StageBuilder tokenStage = b.stage(Gress.EGRESS, EG_TOKEN);
        RegisterArray token = pipes > 1 ? null : tokenStage.register(CLEANER, 32, 1);
        RegisterAction acquire = pipes > 1 ? null : tokenStage.action(acquireToken(token));
        RegisterAction release = pipes > 1 ? null : tokenStage.action(releaseToken(token));
        // the thresholds: a Tofino gateway range-matches at most 12 bits (bf-p4c mau/gateway.cpp), so x >= T on
        // a 32-bit counter is min(x, T) == T, the min here and the gateways in the report's stage; the estimate
        // min_i d_i reaches the loss threshold when every d_i does, so each d_i gets its own min
        Field[] lossCap = new Field[rows];
        for (int i = 0; i < rows; i++) {
            lossCap[i] = b.metadata(Gress.EGRESS, "midst_eg.loss_cap" + i, MidstConfig.COUNTER_BITS);
        }
        Field burstCap = b.metadata(Gress.EGRESS, "midst_eg.burst_cap", MidstConfig.COUNTER_BITS);
        tokenStage.body(code -> code.when(eq(read(probeKind), constant(KIND_NONE)),
                data -> data.when(eq(read(brCounted), constant(1)), counted -> {
                    if (rows > 1) {
                        counted.set(acc, min(read(d[0]), read(d[1])));
                    }
                    for (int i = 0; i < rows; i++) {
                        counted.set(lossCap[i], min(read(d[i]), constant(lossT)));
                    }
                    counted.set(burstCap, min(read(brUmin), constant(burstT)));
                }),
                probe -> {
                    if (pipes > 1) {
                        return;
                    }
                    probe.when(eq(read(probeKind), constant(KIND_TO_INGRESS)),
                        back -> back.when(eq(read(probeCleaning), constant(1)), cleaning -> cleaning.when(
                                eq(read(probeHolder), constant(0)),
                                // another probe is already cleaning: this one is dropped
                                free -> free.execute(acquire, constant(0)).set(probeHolder, output(acquire))
                                        .set(egressDrop, xor(output(acquire), constant(1))))),
                        leaving -> leaving.when(eq(read(probeHolder), constant(1)), holder -> {
                            holder.execute(release, constant(0)).set(probeHolder, 0)
                                    .when(eq(read(probeKind), constant(KIND_RELEASE)), r -> r.set(egressDrop, 1));
                        }));
                }));

        // last stage: a flagged packet gets the report header the collector reads (setValid: Ethernet's
        // EtherType moves into it); an unflagged one leaves as it came
        final Field estimate = rows == 1 ? d[0] : acc;
        IntFunction<Consumer<Block>> report = flags -> x -> x.set(repValid, 1).set(repFlags, flags)
                .set(repLoss, read(estimate)).set(repEpoch, read(brEpoch)).set(repBurst, read(brUmin))
                .set(repEtherType, read(etherType)).set(etherType, MidstHeaders.REPORT_ETHER_TYPE);
        Consumer<Block> notLoser = x -> x.when(eq(read(burstCap), constant(burstT)), report.apply(FLAG_BURSTY));
        b.stage(Gress.EGRESS, EG_MIN + Math.max(1, rows - 1)).body(code -> code.when(eq(read(brCounted), constant(1)),
                counted -> everyAtLeast(counted, lossCap, lossT, 0,
                        loser -> loser.when(eq(read(burstCap), constant(burstT)),
                                report.apply(FLAG_HEAVY_LOSER | FLAG_BURSTY), report.apply(FLAG_HEAVY_LOSER)),
                        notLoser),
                other -> {
                    if (pipes > 1) {
                        // a probe leaving egress pipe j for ingress: home (pipe i = j) or in transit to pipe i
                        Condition home = eq(and(read(egressPort), constant(RECIRCULATION_PIPE_MASK)), read(probeHome));
                        other.when(eq(read(probeKind), constant(KIND_TO_INGRESS)),
                                back -> back.when(home, x -> { }, away -> away.set(probeKind, KIND_TRANSIT)),
                                notBack -> notBack.when(eq(read(probeKind), constant(KIND_TRANSIT)),
                                        transit -> transit.when(home, x -> x.set(probeKind, KIND_TO_INGRESS))));
                    }
                }));
        return estimate;
    }

    /** {@code all} when every cap_i == t (each x_i &gt;= t), else {@code notAll}: one gateway per cap, nested. */
    private static void everyAtLeast(Block code, Field[] caps, long t, int i, Consumer<Block> all, Consumer<Block> notAll) {
        if (i == caps.length) {
            all.accept(code);
            return;
        }
        code.when(eq(read(caps[i]), constant(t)), next -> everyAtLeast(next, caps, t, i + 1, all, notAll), notAll);
    }

    /** Acquired: the token was free; the output is 1 then, else 0 (the probe is dropped). */
    private static RegisterAction.Builder acquireToken(RegisterArray token) {
        return RegisterAction.on(token, "acquire")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(0))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .output(Predicate.C0, RegisterAction.OutputSource.NEW_LO);
    }

    private static RegisterAction.Builder releaseToken(RegisterArray token) {
        return RegisterAction.on(token, "release")
                .updateLo(AluOp.SET, Operand.constant(0), Operand.constant(0));
    }

    // ------------------------------------------------------------------ register actions

    /**
     * The clean pointer counts the dirty words still to clean (0 at boot: a fresh sketch is
     * clean). [0] restart: := W (a counted packet dirtied the sketch); [1] advance: old > 0 ?
     * −1, returning old (the word to clean is old − 1).
     */
    private RegisterAction[] cleanPointerActions(ProgramBuilder.StageBuilder s, RegisterArray reg) {
        RegisterAction restart = s.action(RegisterAction.on(reg, "restart")
                .updateLo(AluOp.SET, Operand.constant(steps), Operand.constant(0)));
        RegisterAction advance = s.action(RegisterAction.on(reg, "advance")
                .condition(Operand.REG_LO, CmpOp.GT, Operand.constant(0))
                .updateLo(Predicate.C0, AluOp.SUB, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.OLD_LO));
        return new RegisterAction[] {restart, advance};
    }

    /** One dirty-word array per row in this stage (when enabled), with its mark and zero actions. */
    private void declareDirtyWords(ProgramBuilder.StageBuilder stage, IntFunction<String> name,
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

    /**
     * The first write of an interval resets the counter (input 0: the old dirty word ANDed
     * with the counter's bit, clear when stale: := 1), later ones add 1.
     */
    private static RegisterAction.Builder counterUpdate(RegisterArray c) {
        return RegisterAction.on(c, "count")
                .condition(Operand.IN_LO, CmpOp.EQ, Operand.constant(0))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .updateLo(Predicate.NOT_C0, AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO);
    }
}
