package dev.rmtemu.programs.wbmon;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;

/**
 * WBMon's data plane on one m-switch: the downstream window in ingress (for
 * packets arriving on a vconn) and the upstream numbering in egress (for
 * packets leaving on one). The WBMon header (vconn id, sequence number, valid
 * bit) is a shim header ({@link WbmonHeader}): ingress consumes the header of the
 * incoming vconn; egress writes a fresh one for the outgoing vconn, or removes it
 * (valid 0) when the packet leaves towards a host. The packet's IP ID and TCP
 * sequence are never touched.
 *
 * <pre>
 * ingress 0: header valid and port table (does a vconn end here?), packets[v] += 1,
 *            started[v] = 1 (its old value says whether this is the vconn's first packet)
 *         1: newest[v]: the packet's slot base (sn with the low log2 W bits cleared) if it is
 *            the first packet or serially newer than the stored one
 *         2: to_clean[v]  (stored as the base of the slot to clean + tws·W):
 *            first packet: own base + tws·W; else if to_clean ≤ newest (serially): + W
 *         3..: bitmap_i[v], i &lt; N, four per stage (tofino1 has 4 stateful ALUs):
 *            clean (read and zero) the register of the slot being cleaned, or OR in the
 *            packet's bit — never both on one register (clean instead of register)
 *         P: zero bits of the cleaned word, one 256-entry popcount table per byte
 *         P+1: drops[v] += zero bits
 * egress  0: port table (vconn leaving on this port?), next_seq[v]++ → header; else header removed
 * </pre>
 * Each register array is touched at most once per packet: the N bitmaps, newest and
 * slot to clean are separate arrays (a register and the slot being cleaned may
 * differ, so one array of N·V cells would need two accesses).
 *
 * <p>Sequence numbers wrap at 2^32 (the header field and the upstream's 32-bit register).
 * Slots are kept as their base sequence number, so they wrap at 2^32 as well, and every
 * order between two of them is serial (RFC 1982): a is before b when (b − a) mod 2^32 is
 * below 2^31. A stateful ALU compares unsigned, so "reg before in" is two conditions,
 * reg &lt; in and reg &gt; in ^ 2^31, joined by AND when in ≥ 2^31 and by OR below: two
 * register actions per order, chosen by the packet's own value (the arrays are lo/hi pairs
 * so that a condition may read the second input word). W must be a power of two
 * so that 2^32 sequence numbers are whole slots.
 */
public final class WbmonPipeline {
    public static final String PORTS_IN = "wbmon_vconn_ports_in";
    public static final String PORTS_OUT = "wbmon_vconn_ports_out";
    public static final String PACKETS = "wbmon_packets";
    public static final String STARTED = "wbmon_started";
    public static final String NEWEST = "wbmon_newest";
    public static final String TO_CLEAN = "wbmon_to_clean";
    public static final String DROPS = "wbmon_drops";
    public static final String NEXT_SEQ = "wbmon_next_seq";
    /** Exact-match entries of the port tables: every 9-bit port number. */
    public static final int PORT_TABLE_SIZE = 512;
    /** Stateful ALUs a tofino1 stage offers: the bitmaps are placed this many per stage. */
    public static final int BITMAPS_PER_STAGE = 4;
    /** Entries of a popcount table: every byte value. */
    public static final int POPCOUNT_ENTRIES = 256;
    static final int ACTION_VALID = 1;
    private static final int STAGE_COUNT = 0;
    private static final int STAGE_NEWEST = 1;
    private static final int STAGE_CLEAN = 2;
    private static final int STAGE_BITMAPS = 3;
    /** Sequence numbers (and slot bases) live modulo 2^{@value WbmonConfig#SEQ_BITS}. */
    static final long SEQ_MASK = (1L << WbmonConfig.SEQ_BITS) - 1;
    /** Half the sequence space: serial order holds between numbers less than this apart. */
    static final long SEQ_HALF = 1L << (WbmonConfig.SEQ_BITS - 1);

    public static String bitmap(int i) {
        return "wbmon_bitmap_" + i;
    }

    public static String popcountTable(int b) {
        return "wbmon_zero_bits_b" + b;
    }

    public final WbmonConfig config;
    public final StageProgram program;
    public final Field vconnId;
    public final Field seq;
    public final Field headerValid;
    private final int bytes;

    public WbmonPipeline(WbmonConfig c) {
        this.config = c;
        this.bytes = c.bitsPerRegister() / WbmonConfig.BITS_PER_COUNT_TABLE;
        ProgramBuilder b = ProgramBuilder.create(WbmonProgram.NAME, WbmonProgram.DESCRIPTION);
        b.param("vconns", c.vconns()).param("registers", c.registers()).param("bits", c.bitsPerRegister())
                .param("tolerance", c.tolerance());
        // declaration order is the shim word's layout (WbmonHeader decodes it)
        vconnId = b.header(WbmonHeader.VCONN, WbmonConfig.VCONN_ID_BITS, ParsedField.SHIM);
        seq = b.header(WbmonHeader.SEQ, WbmonConfig.SEQ_BITS, ParsedField.SHIM);
        headerValid = b.header(WbmonHeader.VALID, WbmonHeader.VALID_BITS, ParsedField.SHIM);
        declareIngress(b);
        declareEgress(b);
        this.program = b.build();
    }

    /** Stage of bitmap register i. */
    static int bitmapStage(int i) {
        return STAGE_BITMAPS + i / BITMAPS_PER_STAGE;
    }

    int popcountStage() {
        return bitmapStage(config.registers() - 1) + 1;
    }

    /** a is serially before b (a &lt; b modulo 2^32, fewer than 2^31 apart). */
    static boolean serialBefore(long a, long b) {
        long d = (b - a) & SEQ_MASK;
        return d != 0 && d < SEQ_HALF;
    }

    /** a is serially before b or equal to it. */
    static boolean serialNotAfter(long a, long b) {
        return ((b - a) & SEQ_MASK) < SEQ_HALF;
    }

    /**
     * The two conditions of "the cell is serially before IN_LO (or equal, {@code orEqual})",
     * c0: cell &lt; IN_LO (≤) and c1: cell &gt; IN_HI, IN_HI carrying IN_LO ^ 2^31. When
     * IN_LO ≥ 2^31 the cells before it are IN_LO ^ 2^31 &lt; cell &lt; IN_LO (C0_AND_C1), below
     * it they are the cells outside that range (C0_OR_C1).
     */
    private static RegisterAction.Builder serialIf(RegisterArray a, String name, boolean orEqual) {
        return RegisterAction.on(a, name)
                .condition(Operand.REG_LO, orEqual ? CmpOp.LE : CmpOp.LT, Operand.IN_LO)
                .condition(Operand.REG_LO, CmpOp.GT, Operand.IN_HI);
    }

    private void declareIngress(ProgramBuilder b) {
        final int n = config.registers();
        final int w = config.bitsPerRegister();
        final long slotMask = SEQ_MASK & ~(long) (w - 1);
        final int slotShift = Integer.numberOfTrailingZeros(w);
        final long twsSpan = (long) config.tolerance() * w;
        final int vconns = config.vconns();
        Field inPort = b.intrinsic(Intrinsic.INGRESS_PORT);
        Field valid = b.metadata(Gress.INGRESS, "wbmon_md.valid", 1);
        Field first = b.metadata(Gress.INGRESS, "wbmon_md.first", 1);
        Field base = b.metadata(Gress.INGRESS, "wbmon_md.slot_base", WbmonConfig.SEQ_BITS);
        Field reg = b.metadata(Gress.INGRESS, "wbmon_md.register", 8);
        Field bit = b.metadata(Gress.INGRESS, "wbmon_md.bit", w);
        Field newestBase = b.metadata(Gress.INGRESS, "wbmon_md.newest_base", WbmonConfig.SEQ_BITS);
        Field cleanReg = b.metadata(Gress.INGRESS, "wbmon_md.clean_register", 8);
        Field setReg = b.metadata(Gress.INGRESS, "wbmon_md.set_register", 8);
        Field cleaned = b.metadata(Gress.INGRESS, "wbmon_md.cleaned", 1);
        Field zeros = b.metadata(Gress.INGRESS, "wbmon_md.zero_bits", 8);
        Field[] wordByte = new Field[bytes];
        for (int k = 0; k < bytes; k++) {
            wordByte[k] = b.metadata(Gress.INGRESS, "wbmon_md.cleaned_byte" + k, WbmonConfig.BITS_PER_COUNT_TABLE);
        }

        // stage 0: is the header valid on this port; packet counter; first packet of the vconn?
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, STAGE_COUNT);
        MatchTable ports = s0.table(PORTS_IN, MatchKind.EXACT, PORT_TABLE_SIZE, 1, inPort);
        RegisterArray packets = s0.register(PACKETS, 32, vconns);
        RegisterAction count = s0.action(RegisterAction.on(packets, "count")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.NONE));
        RegisterArray started = s0.register(STARTED, 8, vconns);
        RegisterAction start = s0.action(RegisterAction.on(started, "start")
                .updateLo(AluOp.SET, Operand.constant(1), Operand.constant(0)).output(RegisterAction.OutputSource.OLD_LO));
        s0.apply(ctx -> {
            int e = ctx.lookup(ports);
            long v = ctx.get(vconnId);
            if (ctx.get(headerValid) == 0 || e < 0 || ctx.actionId(ports, e) != ACTION_VALID || v >= vconns) {
                return;
            }
            long sn = ctx.get(seq);
            ctx.execute(count, v);
            ctx.set(first, ctx.execute(start, v) == 0 ? 1 : 0);
            ctx.set(valid, 1);
            ctx.set(base, sn & slotMask);
            ctx.set(reg, (sn >>> slotShift) % n);
            ctx.set(bit, 1L << (sn & (w - 1)));
        });

        // stage 1: newest slot base, advanced to the packet's when the packet is serially newer
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, STAGE_NEWEST);
        // lo/hi pairs (the hi word unused): a condition may read the second input word, IN_HI, only on a pair
        RegisterArray newest = s1.register(NEWEST, 32, true, vconns);
        RegisterAction newestFirst = s1.action(RegisterAction.on(newest, "first")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)).output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction advanceHigh = s1.action(serialIf(newest, "advance_high", false)
                .updateLo(Predicate.C0_AND_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction advanceLow = s1.action(serialIf(newest, "advance_low", false)
                .updateLo(Predicate.C0_OR_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .output(RegisterAction.OutputSource.NEW_LO));
        s1.apply(ctx -> {
            if (ctx.get(valid) == 0) {
                return;
            }
            long v = ctx.get(vconnId);
            long in = ctx.get(base);
            RegisterAction a = ctx.get(first) != 0 ? newestFirst : in >= SEQ_HALF ? advanceHigh : advanceLow;
            ctx.set(newestBase, ctx.execute(a, v, in, in ^ SEQ_HALF));
        });

        // stage 2: slot to clean, stored as its base + tws·W so that "a dirty slot exists" is stored <= newest
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.INGRESS, STAGE_CLEAN);
        RegisterArray toClean = s2.register(TO_CLEAN, 32, true, vconns);
        RegisterAction cleanFirst = s2.action(RegisterAction.on(toClean, "first")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)).output(RegisterAction.OutputSource.NONE));
        RegisterAction stepHigh = s2.action(serialIf(toClean, "step_high", true)
                .updateLo(Predicate.C0_AND_C1, AluOp.ADD, Operand.REG_LO, Operand.constant(w))
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterAction stepLow = s2.action(serialIf(toClean, "step_low", true)
                .updateLo(Predicate.C0_OR_C1, AluOp.ADD, Operand.REG_LO, Operand.constant(w))
                .output(RegisterAction.OutputSource.OLD_LO));
        s2.apply(ctx -> {
            if (ctx.get(valid) == 0) {
                return;
            }
            long v = ctx.get(vconnId);
            long r = ctx.get(reg);
            long own = ctx.get(base);
            if (ctx.get(first) != 0) {
                // nothing below the first packet's slot is watched
                ctx.execute(cleanFirst, v, (own + twsSpan) & SEQ_MASK);
                ctx.set(cleanReg, n);
                ctx.set(setReg, r);
                return;
            }
            long nw = ctx.get(newestBase);
            long old = ctx.execute(nw >= SEQ_HALF ? stepHigh : stepLow, v, nw, nw ^ SEQ_HALF);
            long clean = n; // none
            boolean register = true;
            if (serialNotAfter(old, nw)) {
                clean = (((old - twsSpan) & SEQ_MASK) >>> slotShift) % n;
                register = clean != r;                         // clean instead of register
            }
            if (serialBefore((own + twsSpan) & SEQ_MASK, old)) {
                register = false;                              // late: its slot was cleaned
            }
            ctx.set(cleanReg, clean);
            ctx.set(setReg, register ? r : n);
        });

        // stages 3..: the N bitmaps, one stateful ALU each
        RegisterAction[] wipe = new RegisterAction[n];
        RegisterAction[] mark = new RegisterAction[n];
        for (int i = 0; i < n; i++) {
            ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, bitmapStage(i));
            RegisterArray bm = s.register(bitmap(i), w, vconns);
            wipe[i] = s.action(RegisterAction.on(bm, "clean")
                    .updateLo(AluOp.SET, Operand.constant(0), Operand.constant(0)).output(RegisterAction.OutputSource.OLD_LO));
            mark[i] = s.action(RegisterAction.on(bm, "register")
                    .updateLo(AluOp.OR, Operand.REG_LO, Operand.IN_LO).output(RegisterAction.OutputSource.NONE));
        }
        for (int firstOfStage = 0; firstOfStage < n; firstOfStage += BITMAPS_PER_STAGE) {
            final int lo = firstOfStage;
            final int hi = Math.min(n, firstOfStage + BITMAPS_PER_STAGE);
            b.stage(Gress.INGRESS, bitmapStage(firstOfStage)).apply(ctx -> {
                if (ctx.get(valid) == 0) {
                    return;
                }
                long v = ctx.get(vconnId);
                long cr = ctx.get(cleanReg);
                long sr = ctx.get(setReg);
                for (int i = lo; i < hi; i++) {
                    if (i == cr) {
                        long word = ctx.execute(wipe[i], v);
                        ctx.set(cleaned, 1);
                        for (int k = 0; k < bytes; k++) {
                            ctx.set(wordByte[k], word >>> (k * WbmonConfig.BITS_PER_COUNT_TABLE));
                        }
                    } else if (i == sr) {
                        ctx.execute(mark[i], v, ctx.get(bit));
                    }
                }
            });
        }

        // popcount stage: zero bits per byte from tables the control plane fills (installPopcount)
        ProgramBuilder.StageBuilder sp = b.stage(Gress.INGRESS, popcountStage());
        MatchTable[] zeroBits = new MatchTable[bytes];
        for (int k = 0; k < bytes; k++) {
            zeroBits[k] = sp.table(popcountTable(k), MatchKind.EXACT, POPCOUNT_ENTRIES, 4, wordByte[k]);
        }
        sp.apply(ctx -> {
            if (ctx.get(cleaned) == 0) {
                return;
            }
            long z = 0;
            for (int k = 0; k < bytes; k++) {
                int e = ctx.lookup(zeroBits[k]);
                z += e < 0 ? 0 : ctx.actionData(zeroBits[k], e);
            }
            ctx.set(zeros, z);
        });

        // drop counter
        ProgramBuilder.StageBuilder sd = b.stage(Gress.INGRESS, popcountStage() + 1);
        RegisterArray drops = sd.register(DROPS, 32, vconns);
        RegisterAction add = sd.action(RegisterAction.on(drops, "add")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO).output(RegisterAction.OutputSource.NONE));
        sd.apply(ctx -> {
            if (ctx.get(cleaned) != 0) {
                ctx.execute(add, ctx.get(vconnId), ctx.get(zeros));
            }
        });
    }

    private void declareEgress(ProgramBuilder b) {
        Field outPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.EGRESS, 0);
        MatchTable ports = s0.table(PORTS_OUT, MatchKind.EXACT, PORT_TABLE_SIZE, WbmonConfig.VCONN_ID_BITS, outPort);
        RegisterArray next = s0.register(NEXT_SEQ, WbmonConfig.SEQ_BITS, config.vconns());
        RegisterAction stamp = s0.action(RegisterAction.on(next, "stamp")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.OLD_LO));
        s0.apply(ctx -> {
            int e = ctx.lookup(ports);
            if (e < 0) {
                // not a vconn port (a host): the incoming vconn's header goes no further
                ctx.set(headerValid, 0);
                ctx.set(vconnId, 0);
                ctx.set(seq, 0);
                return;
            }
            long v = ctx.actionData(ports, e);
            ctx.set(headerValid, 1);
            ctx.set(vconnId, v);
            ctx.set(seq, ctx.execute(stamp, v));
        });
    }

    /** Control plane: the packets arriving on {@code port} carry the WBMon header. */
    public static void addIncomingPort(PipelineState s, int port) {
        s.addExact(PORTS_IN, new long[] {port}, ACTION_VALID, 0);
    }

    /** Control plane: packets leaving on {@code port} go on vconn {@code vconn}. */
    public static void addOutgoingPort(PipelineState s, int port, int vconn) {
        s.addExact(PORTS_OUT, new long[] {port}, ACTION_VALID, vconn);
    }

    /** Control plane: the popcount tables (zero bits of every byte value). */
    public void installPopcount(PipelineState s) {
        for (int k = 0; k < bytes; k++) {
            for (int value = 0; value < POPCOUNT_ENTRIES; value++) {
                s.addExact(popcountTable(k), new long[] {value}, ACTION_VALID,
                        WbmonConfig.BITS_PER_COUNT_TABLE - Integer.bitCount(value));
            }
        }
    }
}
