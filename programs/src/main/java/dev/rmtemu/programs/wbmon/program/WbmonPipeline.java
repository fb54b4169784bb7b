package dev.rmtemu.programs.wbmon.program;


import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.parse.EtherTypeShim;
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
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableAction;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.actionData;
import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.ge;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.lt;
import static dev.rmtemu.model.ir.Ir.ne;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shr;
import static dev.rmtemu.model.ir.Ir.sub;
import static dev.rmtemu.model.ir.Ir.xor;

/**
 * WBMon's data plane on one m-switch, in the IR: the downstream window in
 * ingress (for packets arriving on a vconn) and the upstream numbering in egress
 * (for packets leaving on one). The WBMon header (vconn id, sequence number,
 * valid bit) is a shim header ({@link WbmonHeader}): ingress consumes the header
 * of the incoming vconn; egress writes a fresh one for the outgoing vconn, or
 * removes it (valid 0) when the packet leaves towards a host. The packet's IP ID
 * and TCP sequence are never touched.
 *
 * <pre>
 * ingress 0: header valid, vconn in range, port table (does a vconn end here?):
 *            packets[v] += 1; started[v] = 1 (its old value: is this the vconn's first packet?);
 *            slot base = sn &amp; ~(W−1); sn ^ 2^31; low bits = sn &amp; (N·W − 1)
 *         1: newest[v]: the packet's slot base if first or serially newer; base + tws·W;
 *            own-bit table on the low bits: its action is the packet's register, its action
 *            data the packet's bit 1 &lt;&lt; (sn mod W)
 *         2: to_clean[v] (the base of the slot to clean + tws·W): first: own base + tws·W;
 *            else if to_clean ≤ newest (serially): + W; its old value, differences to the
 *            newest and to the packet's own slot go to metadata
 *         3: decisions on stage 2's values: the register to clean (or none), the bit to OR into
 *            each register (0 when the packet is late)
 *         4..: bitmap_i[v], four per stage (tofino1 has 4 stateful ALUs): one action per
 *            register, cleaning (read and zero) when the clean key names it, else OR in its bit
 *            (so a packet whose register is being cleaned cleans instead of registering);
 *            the cleaned word's bytes go to metadata
 *         P: zero bits of each byte of the cleaned word, one 256-entry popcount table per byte
 *         P+1: drops_b[v] += zero bits of byte b (one counter per byte lane; the collector adds them)
 * egress  0: port table (one vconn leaving on this port, or several: ECMP), flow fingerprint (CRC-32 of the 5-tuple)
 *        1: on an ECMP port, the flow table (port, fingerprint → vconn)
 *        2: on a vconn: next_seq[v]++ → header; else header removed
 * </pre>
 * Fitting tofino1: a gateway may not branch on a stateful ALU's output in its own stage, so
 * stage 2's result is decided in stage 3; there is no divider or variable shift, so N is a power of two
 * (the register is a mask of the slot number) and the bit 1 &lt;&lt; (sn mod W) comes from a
 * table of constants; four zero counts cannot be summed in one instruction, so drops are
 * counted per byte lane. Each register array is touched at most once per packet: the N
 * bitmaps, newest and slot to clean are separate arrays.
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
    public static final String FLOWS_OUT = "wbmon_vconn_flows_out";
    public static final String OWN_BIT = "wbmon_own_bit";
    public static final String PACKETS = "wbmon_packets";
    public static final String STARTED = "wbmon_started";
    public static final String NEWEST = "wbmon_newest";
    public static final String TO_CLEAN = "wbmon_to_clean";
    public static final String NEXT_SEQ = "wbmon_next_seq";
    /** Exact-match entries of the port tables: every 9-bit port number. */
    public static final int PORT_TABLE_SIZE = 512;
    /** Stateful ALUs a tofino1 stage offers: the bitmaps are placed this many per stage. */
    public static final int BITMAPS_PER_STAGE = 4;
    /** Entries of a popcount table: every byte value. */
    public static final int POPCOUNT_ENTRIES = 256;
    public static final int ACTION_VALID = 1;
    /** The egress tables' action that numbers a packet's vconn, as control scripts name it. */
    public static final String SET_VCONN = "set_vconn";
    /** The ingress port table's action: a vconn ends on this port. */
    public static final String TRACK = "track";
    /** The egress port table's action: the port's traffic splits over several vconns. */
    public static final String ECMP = "ecmp";
    /** Port-table action of a port whose traffic regular switches split over several vconns (ECMP). */
    public static final int ACTION_ECMP = 2;
    /** Flows on ECMP ports an m-switch can number: exact-match entries of the flow table. */
    public static final int ECMP_FLOW_ENTRIES = 8192;
    /** The flow fingerprint: a CRC-32 of the 5-tuple. */
    static final String FINGERPRINT_HASH = "crc32";
    static final int FINGERPRINT_BITS = 32;
    private static final int STAGE_COUNT = 0;
    private static final int STAGE_NEWEST = 1;
    private static final int STAGE_CLEAN = 2;
    private static final int STAGE_DECIDE = 3;
    private static final int STAGE_BITMAPS = 4;
    /** Sequence numbers (and slot bases) live modulo 2^{@value WbmonConfig#SEQ_BITS}. */
    public static final long SEQ_MASK = (1L << WbmonConfig.SEQ_BITS) - 1;
    /** Half the sequence space: serial order holds between numbers less than this apart. */
    static final long SEQ_HALF = 1L << (WbmonConfig.SEQ_BITS - 1);
    /** Width of the metadata keys naming a register (its slot-number bits in place, see {@link #registerKey}). */
    private static final int KEY_BITS = 16;

    public static String bitmap(int i) {
        return "wbmon_bitmap_" + i;
    }

    public static String popcountTable(int b) {
        return "wbmon_zero_bits_b" + b;
    }

    /** The drop counter of byte lane b: zero bits of byte b of every cleaned word. */
    public static String drops(int b) {
        return "wbmon_drops_b" + b;
    }

    public final WbmonConfig config;
    public final StageProgram program;
    public final Field vconnId;
    public final Field seq;
    public final Field headerValid;
    /** Ethernet's EtherType and the shim's: the header is added or removed by moving the one into the other. */
    private final Field etherType;
    private final Field nextEtherType;
    private HashUnit flowHash;
    private final int bytes;
    /** Cells of the per-vconn arrays: vconns rounded up to a power of two, so that the index is a mask of the id. */
    private final int cells;

    public WbmonPipeline(WbmonConfig c) {
        this.config = c;
        this.bytes = c.bitsPerRegister() / WbmonConfig.BITS_PER_COUNT_TABLE;
        this.cells = Integer.highestOneBit(c.vconns()) == c.vconns() ? c.vconns() : Integer.highestOneBit(c.vconns()) << 1;
        ProgramBuilder b = ProgramBuilder.create(WbmonProgram.NAME, WbmonProgram.DESCRIPTION);
        b.param("vconns", c.vconns()).param("registers", c.registers()).param("bits", c.bitsPerRegister())
                .param("tolerance", c.tolerance());
        // the default parse graph with the WBMon shim after Ethernet (EtherType 0x88B6)
        b.parser(EtherTypeShim.spec(List.of(WbmonHeader.SHIM)));
        vconnId = b.header(WbmonHeader.VCONN);
        seq = b.header(WbmonHeader.SEQ);
        headerValid = b.valid(WbmonHeader.HEADER);
        etherType = b.header("ethernet.ether_type");
        nextEtherType = b.header(WbmonHeader.SHIM.nextField());
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

    /** Drop-counter lanes: one per byte of a W-bit register. */
    public int dropLanes() {
        return bytes;
    }

    /** a is serially before b (a &lt; b modulo 2^32, fewer than 2^31 apart). */
    public static boolean serialBefore(long a, long b) {
        long d = (b - a) & SEQ_MASK;
        return d != 0 && d < SEQ_HALF;
    }

    /** a is serially before b or equal to it. */
    public static boolean serialNotAfter(long a, long b) {
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

    /**
     * Register i's key: a slot base masked to its register bits, (slot mod N)·W. The
     * decisions compare slot bases masked this way, so no shift is needed.
     */
    private long registerKey(int i) {
        return (long) i * config.bitsPerRegister();
    }

    /** The key that names no register. */
    private long noRegister() {
        return (long) config.registers() * config.bitsPerRegister();
    }

    /** The metadata of the ingress stages, by the stage that writes it. */
    private record Md(Field valid, Field started, Field base, Field low, Field baseFlipped, Field ownPlusTws,
                      Field[] ownBit, Field newest, Field newestFlipped, Field cleanBase, Field toNewest, Field toOwn,
                      Field cleaned, Field cleanKey, Field[] markBit, Field[] wordByte, Field[] zeros) {
    }

    private Md metadata(ProgramBuilder b) {
        int n = config.registers();
        int w = config.bitsPerRegister();
        int s = WbmonConfig.SEQ_BITS;
        Field[] ownBit = new Field[n];
        Field[] markBit = new Field[n];
        for (int i = 0; i < n; i++) {
            ownBit[i] = b.metadata(Gress.INGRESS, "wbmon_md.own_bit" + i, w);
            markBit[i] = b.metadata(Gress.INGRESS, "wbmon_md.mark_bit" + i, w);
        }
        Field[] wordByte = new Field[bytes];
        Field[] zeros = new Field[bytes];
        for (int k = 0; k < bytes; k++) {
            wordByte[k] = b.metadata(Gress.INGRESS, "wbmon_md.cleaned_byte" + k, WbmonConfig.BITS_PER_COUNT_TABLE);
            zeros[k] = b.metadata(Gress.INGRESS, "wbmon_md.zero_bits" + k, WbmonConfig.BITS_PER_COUNT_TABLE);
        }
        return new Md(b.metadata(Gress.INGRESS, "wbmon_md.valid", 1), b.metadata(Gress.INGRESS, "wbmon_md.started", 1),
                b.metadata(Gress.INGRESS, "wbmon_md.slot_base", s), b.metadata(Gress.INGRESS, "wbmon_md.low_bits", KEY_BITS),
                b.metadata(Gress.INGRESS, "wbmon_md.seq_flipped", s), b.metadata(Gress.INGRESS, "wbmon_md.own_plus_tws", s),
                ownBit, b.metadata(Gress.INGRESS, "wbmon_md.newest", s), b.metadata(Gress.INGRESS, "wbmon_md.newest_flipped", s),
                b.metadata(Gress.INGRESS, "wbmon_md.clean_base", s), b.metadata(Gress.INGRESS, "wbmon_md.to_newest", s),
                b.metadata(Gress.INGRESS, "wbmon_md.to_own", s), b.metadata(Gress.INGRESS, "wbmon_md.cleaned", 1),
                b.metadata(Gress.INGRESS, "wbmon_md.clean_key", KEY_BITS), markBit, wordByte, zeros);
    }

    /**
     * A tracked vconn, id &lt; vconns. A Tofino gateway range-matches at most 12 bits (bf-p4c
     * mau/gateway.cpp), so on the 16-bit id the test is id &lt; cells (the power of two above
     * vconns: its high bits zero, an equality) and, when vconns is not that power of two, the
     * id's low log2(cells) bits &lt; vconns (a range on at most 12 bits up to 4,096 cells).
     */
    private void whenTracked(Block code, Consumer<Block> tracked) {
        if (cells == config.vconns()) {
            code.when(lt(read(vconnId), constant(cells)), tracked);
        } else {
            code.when(lt(read(vconnId), constant(cells)),
                    inCells -> inCells.when(lt(and(read(vconnId), constant(cells - 1)), constant(config.vconns())), tracked));
        }
    }

    private void declareIngress(ProgramBuilder b) {
        final int n = config.registers();
        final int w = config.bitsPerRegister();
        final long slotMask = SEQ_MASK & ~(long) (w - 1);
        final long registerMask = (long) (n - 1) * w;
        final long twsSpan = (long) config.tolerance() * w;
        Md md = metadata(b);
        Field inPort = b.intrinsic(Intrinsic.INGRESS_PORT);
        Expr v = and(read(vconnId), constant(cells - 1));

        // stage 0: a header, of a tracked vconn, on a port where a vconn ends: count it, first packet?, slot base
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, STAGE_COUNT);
        MatchTable ports = s0.table(PORTS_IN, MatchKind.EXACT, PORT_TABLE_SIZE, 1,
                TableActions.of("NoAction", TableAction.of(ACTION_VALID, TRACK)), inPort);
        RegisterArray packets = s0.register(PACKETS, 32, cells);
        RegisterAction count = s0.action(RegisterAction.on(packets, "count")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.NONE));
        RegisterArray started = s0.register(STARTED, 8, cells);
        RegisterAction start = s0.action(RegisterAction.on(started, "start")
                .updateLo(AluOp.SET, Operand.constant(1), Operand.constant(0)).output(RegisterAction.OutputSource.OLD_LO));
        s0.body(code -> code.when(eq(read(headerValid), constant(1)), header -> whenTracked(header, tracked -> tracked
                        .apply(ports).on(ACTION_VALID, hit -> hit
                                .execute(count, v)
                                .execute(start, v)
                                .set(md.started(), output(start))
                                .set(md.valid(), 1)
                                .set(md.base(), and(read(seq), constant(slotMask)))
                                // sn ^ 2^31 compares with a multiple of W as base ^ 2^31 does (the low bits
                                // only add less than W), so the stateful ALU can read it one stage earlier
                                .set(md.baseFlipped(), xor(read(seq), constant(SEQ_HALF)))
                                .set(md.low(), and(read(seq), constant((long) n * w - 1)))))));


        // stage 1: newest slot base, advanced to the packet's when the packet is serially newer; the own-bit
        // table gives the packet's register and bit
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.INGRESS, STAGE_NEWEST);
        MatchTable ownBit = s2.constTable(OWN_BIT, w, ownBitEntries(config), md.low());
        // lo/hi pairs (the hi word unused): a condition may read the second input word, IN_HI, only on a pair
        RegisterArray newest = s2.register(NEWEST, 32, true, cells);
        RegisterAction newestFirst = s2.action(RegisterAction.on(newest, "first")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)).output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction advanceHigh = s2.action(serialIf(newest, "advance_high", false)
                .updateLo(Predicate.C0_AND_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction advanceLow = s2.action(serialIf(newest, "advance_low", false)
                .updateLo(Predicate.C0_OR_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .output(RegisterAction.OutputSource.NEW_LO));
        s2.body(code -> code.when(eq(read(md.valid()), constant(1)), valid -> {
            valid.set(md.ownPlusTws(), add(read(md.base()), constant(twsSpan)))
                    .when(eq(read(md.started()), constant(0)),
                            first -> first.execute(newestFirst, v, read(md.base())).set(md.newest(), output(newestFirst)),
                            later -> later.when(ge(read(md.base()), constant(SEQ_HALF)),
                                    high -> advance(high, advanceHigh, v, md),
                                    low -> advance(low, advanceLow, v, md)));
            Block.TableApply t = valid.apply(ownBit);
            for (int i = 0; i < n; i++) {
                final int r = i;
                t.on(registerAction(r), hit -> hit.set(md.ownBit()[r], actionData(ownBit)));
            }
        }));

        // stage 2: slot to clean, stored as its base + tws·W so that "a dirty slot exists" is stored <= newest
        ProgramBuilder.StageBuilder s3 = b.stage(Gress.INGRESS, STAGE_CLEAN);
        RegisterArray toClean = s3.register(TO_CLEAN, 32, true, cells);
        // a stateful ALU reads two PHV words, newest and its flipped twin: the first packet's newest is its own base
        RegisterAction cleanFirst = s3.action(RegisterAction.on(toClean, "first")
                .updateLo(AluOp.ADD, Operand.IN_LO, Operand.constant(twsSpan)).output(RegisterAction.OutputSource.NONE));
        RegisterAction stepHigh = s3.action(serialIf(toClean, "step_high", true)
                .updateLo(Predicate.C0_AND_C1, AluOp.ADD, Operand.REG_LO, Operand.constant(w))
                .output(RegisterAction.OutputSource.OLD_LO));
        RegisterAction stepLow = s3.action(serialIf(toClean, "step_low", true)
                .updateLo(Predicate.C0_OR_C1, AluOp.ADD, Operand.REG_LO, Operand.constant(w))
                .output(RegisterAction.OutputSource.OLD_LO));
        s3.body(code -> code.when(eq(read(md.valid()), constant(1)), valid -> valid
                .when(eq(read(md.started()), constant(0)),
                        // nothing below the first packet's slot is watched
                        first -> first.execute(cleanFirst, v, read(md.newest())),
                        later -> later.when(ge(read(md.newest()), constant(SEQ_HALF)),
                                high -> step(high, stepHigh, v, md, twsSpan),
                                low -> step(low, stepLow, v, md, twsSpan)))));

        // stage 3: decisions on stage 2's values (a gateway cannot branch on a stateful ALU's output in its stage)
        Expr cleanKey = and(read(md.cleanBase()), constant(registerMask));
        b.stage(Gress.INGRESS, STAGE_DECIDE).body(code -> code.when(eq(read(md.valid()), constant(1)), valid -> valid
                .when(eq(read(md.started()), constant(0)),
                        first -> markOwn(first.set(md.cleanKey(), noRegister()), md),
                        later -> later.when(lt(read(md.toNewest()), constant(SEQ_HALF)),
                                // a dirty slot: clean it (its register's action cleans instead of registering)
                                dirty -> markUnlessLate(dirty.set(md.cleanKey(), cleanKey).set(md.cleaned(), 1), md),
                                clean -> markUnlessLate(clean.set(md.cleanKey(), noRegister()), md)))));

        // stages 4..: the N bitmaps, one stateful ALU each; the cleaned word's bytes to metadata
        RegisterAction[] update = new RegisterAction[n];
        for (int i = 0; i < n; i++) {
            ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, bitmapStage(i));
            // a pair so that the condition can read IN_HI, the clean key; the hi word is unused
            RegisterArray bm = s.register(bitmap(i), w, true, cells);
            update[i] = s.action(RegisterAction.on(bm, "clean_or_register")
                    .condition(Operand.IN_HI, CmpOp.EQ, Operand.constant(registerKey(i)))
                    .updateLo(Predicate.C0, AluOp.SET, Operand.constant(0), Operand.constant(0))
                    .updateLo(Predicate.NOT_C0, AluOp.OR, Operand.REG_LO, Operand.IN_LO)
                    .output(Predicate.C0, RegisterAction.OutputSource.OLD_LO));
        }
        for (int firstOfStage = 0; firstOfStage < n; firstOfStage += BITMAPS_PER_STAGE) {
            final int lo = firstOfStage;
            final int hi = Math.min(n, firstOfStage + BITMAPS_PER_STAGE);
            b.stage(Gress.INGRESS, bitmapStage(firstOfStage)).body(code -> code.when(eq(read(md.valid()), constant(1)), valid -> {
                for (int i = lo; i < hi; i++) {
                    valid.execute(update[i], v, read(md.markBit()[i]), read(md.cleanKey()));
                }
                wordBytes(valid, update, lo, hi, md);
            }));
        }

        // popcount stage: zero bits per byte from tables of constants (P4 const entries)
        ProgramBuilder.StageBuilder sp = b.stage(Gress.INGRESS, popcountStage());
        MatchTable[] zeroBits = new MatchTable[bytes];
        for (int k = 0; k < bytes; k++) {
            zeroBits[k] = sp.constTable(popcountTable(k), 4, popcountEntries(), md.wordByte()[k]);
        }
        sp.body(code -> code.when(eq(read(md.cleaned()), constant(1)), cleaned -> {
            for (int k = 0; k < bytes; k++) {
                final int lane = k;
                cleaned.apply(zeroBits[k]).on(ACTION_VALID, hit -> hit.set(md.zeros()[lane], actionData(zeroBits[lane])));
            }
        }));

        // drop counters, one per byte lane (four table outputs cannot be summed by one instruction)
        ProgramBuilder.StageBuilder sd = b.stage(Gress.INGRESS, popcountStage() + 1);
        RegisterAction[] addDrops = new RegisterAction[bytes];
        for (int k = 0; k < bytes; k++) {
            RegisterArray lane = sd.register(drops(k), 32, cells);
            addDrops[k] = sd.action(RegisterAction.on(lane, "add")
                    .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO).output(RegisterAction.OutputSource.NONE));
        }
        sd.body(code -> code.when(eq(read(md.cleaned()), constant(1)), cleaned -> {
            for (int k = 0; k < bytes; k++) {
                cleaned.execute(addDrops[k], v, read(md.zeros()[k]));
            }
        }));
    }

    /** The own-bit table's action for register i (action ids start at 1). */
    private static int registerAction(int i) {
        return i + 1;
    }

    private static void advance(Block b, RegisterAction a, Expr v, Md md) {
        b.execute(a, v, read(md.base()), read(md.baseFlipped()))
                .set(md.newest(), output(a))
                .set(md.newestFlipped(), xor(output(a), constant(SEQ_HALF)));
    }

    /** Steps the slot to clean; what stage 4 decides on: the distances old → newest and own + tws·W → old. */
    private static void step(Block b, RegisterAction a, Expr v, Md md, long twsSpan) {
        b.execute(a, v, read(md.newest()), read(md.newestFlipped()))
                .set(md.cleanBase(), sub(output(a), constant(twsSpan)))
                .set(md.toNewest(), sub(read(md.newest()), output(a)))
                .set(md.toOwn(), sub(output(a), read(md.ownPlusTws())));
    }

    /** The packet registers: its own bit goes to its register's input. */
    private static void markOwn(Block b, Md md) {
        for (int i = 0; i < md.ownBit().length; i++) {
            b.set(md.markBit()[i], read(md.ownBit()[i]));
        }
    }

    /** A late packet (its slot, own + tws·W serially before the stored slot to clean, was cleaned) does not register. */
    private static void markUnlessLate(Block b, Md md) {
        b.when(ne(read(md.toOwn()), constant(0)),
                apart -> apart.when(lt(read(md.toOwn()), constant(SEQ_HALF)), late -> { }, early -> markOwn(early, md)),
                same -> markOwn(same, md));
    }

    /** The cleaned word's bytes, from the one register whose key the clean key is (an else-chain: one write per path). */
    private void wordBytes(Block b, RegisterAction[] update, int i, int end, Md md) {
        if (i == end) {
            return;
        }
        b.when(eq(read(md.cleanKey()), constant(registerKey(i))), cleaned -> {
            for (int k = 0; k < bytes; k++) {
                Expr word = output(update[i]);
                cleaned.set(md.wordByte()[k], k == 0 ? word : shr(word, constant((long) k * WbmonConfig.BITS_PER_COUNT_TABLE)));
            }
        }, other -> wordBytes(other, update, i + 1, end, md));
    }

    /**
     * Egress: which vconn the packet enters. A port where one vconn starts says so in the port
     * table; a port whose traffic regular switches split over several vconns (ECMP) is marked,
     * and the vconn of each flow leaving on it comes from the flow table (egress port and a
     * CRC-32 fingerprint of the 5-tuple), which the control plane fills from the forwarding
     * rules it knows (WBMon dissertation Section 4.2: topology and forwarding rules are known).
     * A packet on no vconn (towards a host, or of a flow the control plane did not list) leaves
     * without a header.
     */
    private void declareEgress(ProgramBuilder b) {
        Field outPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        FiveTuple t = FiveTuple.declare(b);
        Field vconn = b.metadata(Gress.EGRESS, "wbmon_eg.vconn", WbmonConfig.VCONN_ID_BITS);
        Field numbered = b.metadata(Gress.EGRESS, "wbmon_eg.numbered", 1);
        Field ecmp = b.metadata(Gress.EGRESS, "wbmon_eg.ecmp", 1);
        Field flow = b.metadata(Gress.EGRESS, "wbmon_eg.flow", FINGERPRINT_BITS);

        ProgramBuilder.StageBuilder s0 = b.stage(Gress.EGRESS, 0);
        MatchTable ports = s0.table(PORTS_OUT, MatchKind.EXACT, PORT_TABLE_SIZE, TableActions.of("NoAction",
                TableAction.of(ACTION_VALID, SET_VCONN, "vconn", WbmonConfig.VCONN_ID_BITS), TableAction.of(ACTION_ECMP, ECMP)),
                outPort);
        flowHash = s0.hash("wbmon_flow_fingerprint", HashAlgorithm.byName(FINGERPRINT_HASH), FINGERPRINT_BITS, t.fields());
        // the fingerprint only where the flow table needs it (the hash is computed on that path only)
        s0.body(code -> code
                .apply(ports)
                .on(ACTION_VALID, one -> one.set(vconn, actionData(ports)).set(numbered, 1))
                .on(ACTION_ECMP, several -> several.set(ecmp, 1).set(flow, hash(flowHash))));

        ProgramBuilder.StageBuilder s1 = b.stage(Gress.EGRESS, 1);
        MatchTable flows = s1.table(FLOWS_OUT, MatchKind.EXACT, ECMP_FLOW_ENTRIES,
                TableActions.of("NoAction", TableAction.of(ACTION_VALID, SET_VCONN, "vconn", WbmonConfig.VCONN_ID_BITS)),
                outPort, flow);
        s1.body(code -> code.when(eq(read(ecmp), constant(1)), split -> split
                .apply(flows).on(ACTION_VALID, known -> known.set(vconn, actionData(flows)).set(numbered, 1))));

        ProgramBuilder.StageBuilder s2 = b.stage(Gress.EGRESS, 2);
        RegisterArray next = s2.register(NEXT_SEQ, WbmonConfig.SEQ_BITS, cells);
        RegisterAction stamp = s2.action(RegisterAction.on(next, "stamp")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.OLD_LO));
        s2.body(code -> code.when(eq(read(numbered), constant(1)),
                onVconn -> onVconn
                        .execute(stamp, and(read(vconn), constant(cells - 1)))
                        .set(vconnId, read(vconn))
                        .set(seq, output(stamp))
                        // a packet that came without the header gets it (setValid): Ethernet's EtherType
                        // moves into the shim and Ethernet announces the shim
                        .when(eq(read(headerValid), constant(0)), add -> add
                                .set(headerValid, 1)
                                .set(nextEtherType, read(etherType))
                                .set(etherType, WbmonHeader.ETHER_TYPE)),
                // not on a vconn (a host): the incoming vconn's header goes no further (setInvalid),
                // Ethernet gets back the EtherType the shim carried
                off -> off.when(eq(read(headerValid), constant(1)), remove -> remove
                        .set(headerValid, 0)
                        .set(etherType, read(nextEtherType)))));
    }

    /** The fingerprint the flow table keys on, of a 5-tuple (what the control plane computes for each flow it lists). */
    public long fingerprint(int srcIpv4, int dstIpv4, int protocol, int srcPort, int dstPort) {
        long[] phv = new long[program.fields().stream().mapToInt(Field::slot).max().orElse(0) + 1];
        List<Field> in = flowHash.inputs();
        long[] values = {srcIpv4 & 0xFFFFFFFFL, dstIpv4 & 0xFFFFFFFFL, protocol & 0xFF, srcPort & 0xFFFF, dstPort & 0xFFFF};
        for (int i = 0; i < values.length; i++) {
            phv[in.get(i).slot()] = values[i];
        }
        return flowHash.compute(phv);
    }

    /** Control plane: the packets arriving on {@code port} carry the WBMon header. */
    public static void addIncomingPort(PipelineState s, int port) {
        s.addExact(PORTS_IN, new long[] {port}, ACTION_VALID, 0);
    }

    /** Control plane: packets leaving on {@code port} go on vconn {@code vconn}. */
    public static void addOutgoingPort(PipelineState s, int port, int vconn) {
        s.addExact(PORTS_OUT, new long[] {port}, ACTION_VALID, vconn);
    }

    /** Control plane: regular switches split the traffic leaving on {@code port} over several vconns. */
    public static void addEcmpPort(PipelineState s, int port) {
        s.addExact(PORTS_OUT, new long[] {port}, ACTION_ECMP, 0);
    }

    /** Control plane: the flow with this fingerprint, leaving on ECMP port {@code port}, goes on vconn {@code vconn}. */
    public static void addOutgoingFlow(PipelineState s, int port, long fingerprint, int vconn) {
        s.addExact(FLOWS_OUT, new long[] {port, fingerprint}, ACTION_VALID, vconn);
    }

    /**
     * The own-bit table's constant entries: the low log2(N·W) bits of the sequence number
     * select the register (the action) and the bit 1 &lt;&lt; (sn mod W) (the data). Const
     * entries, as in P4: compiled into the program, never touched by the control plane.
     */
    static List<MatchTable.ConstEntry> ownBitEntries(WbmonConfig c) {
        List<MatchTable.ConstEntry> out = new ArrayList<>();
        int w = c.bitsPerRegister();
        int shift = Integer.numberOfTrailingZeros(w);
        for (int low = 0; low < c.registers() * w; low++) {
            out.add(new MatchTable.ConstEntry(new long[] {low}, registerAction(low >>> shift), 1L << (low & (w - 1))));
        }
        return out;
    }

    /** A popcount table's constant entries: the zero bits of every byte value. */
    static List<MatchTable.ConstEntry> popcountEntries() {
        List<MatchTable.ConstEntry> out = new ArrayList<>();
        for (int value = 0; value < POPCOUNT_ENTRIES; value++) {
            out.add(new MatchTable.ConstEntry(new long[] {value}, ACTION_VALID,
                    WbmonConfig.BITS_PER_COUNT_TABLE - Integer.bitCount(value)));
        }
        return out;
    }

    /** Drops detected on vconn {@code id}, every pipe: the byte lanes added. */
    public static long readDrops(SwitchEngine e, WbmonConfig c, int id) {
        long sum = 0;
        for (int k = 0; k < c.bitsPerRegister() / WbmonConfig.BITS_PER_COUNT_TABLE; k++) {
            sum += readAllPipes(e, drops(k), id);
        }
        return sum;
    }

    /** A register cell of vconn {@code id} summed over the switch's pipes (each pipe keeps its own copy). */
    public static long readAllPipes(SwitchEngine e, String array, int id) {
        long sum = 0;
        for (int p = 0; p < e.state().pipes(); p++) {
            sum += e.state().readRegister(p, array, id);
        }
        return sum;
    }
}
