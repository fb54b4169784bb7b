package dev.rmtemu.model.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The parser's checksum engines ({@link ParserChecksumOp}) run over an accepted parse: the parse's
 * path is walked again (each state's extracts are the parse's, its select decided by the values the
 * parse read), and each operation runs where its state met it, each engine a 16-bit
 * ones'-complement sum (RFC 1071; a subtract adds the words' complements, RFC 1624). Results go
 * into PHV slots. Allocates nothing per packet.
 */
public final class ParserChecksums {
    private final ParseGraph g;
    /** Per state, its checksum operations in order, and the state operation each one follows. */
    private final int[][] opsIn;
    private final int[][] opsAt;
    private final int maxSteps;
    private final int[] kind;
    private final int[] engine;
    private final FieldRef[][] fields;
    private final int[] targetSlot;
    private final long[] targetMask;
    /** Per header, every field (what a deposit subtracts of a header extracted after it). */
    private final FieldRef[][] headerFields;
    private final long[] sum;
    private final boolean[] depositing;
    private final int[] depositSlot;
    private final long[] depositMask;

    /**
     * Resolves {@code ops} against {@code graph}; {@code slotOf} gives a target field's PHV slot
     * and {@code widthOf} its width.
     */
    public ParserChecksums(ParseGraph graph, List<ParserChecksumOp> ops, ToIntFunction<String> slotOf,
                           ToIntFunction<String> widthOf) {
        this.g = graph;
        int nh = graph.headers().size();
        int ns = graph.states().size();
        List<List<Integer>> in = new ArrayList<>();
        for (int st = 0; st < ns; st++) {
            in.add(new ArrayList<>());
        }
        List<String> engines = new ArrayList<>();
        int n = ops.size();
        kind = new int[n];
        engine = new int[n];
        fields = new FieldRef[n][];
        targetSlot = new int[n];
        targetMask = new long[n];
        for (int i = 0; i < n; i++) {
            ParserChecksumOp op = ops.get(i);
            int st = graph.stateIndex(op.state());
            if (st < 0 || op.position() < 0 || op.position() > graph.states().get(st).ops().size()) {
                throw new IllegalArgumentException("parser checksum " + op.checksum() + ": no operation " + op.position()
                        + " in state " + op.state());
            }
            in.get(st).add(i);
            if (!engines.contains(op.checksum())) {
                engines.add(op.checksum());
            }
            engine[i] = engines.indexOf(op.checksum());
            kind[i] = op.kind().ordinal();
            fields[i] = new FieldRef[op.fields().size()];
            int bits = 0;
            for (int f = 0; f < fields[i].length; f++) {
                fields[i][f] = graph.field(op.fields().get(f));
                bits += fields[i][f].bits();
            }
            if (bits % 16 != 0) {
                throw new IllegalArgumentException("parser checksum " + op.checksum() + ": " + bits
                        + " bits of fields is not a whole number of 16-bit words");
            }
            if (op.target() != null) {
                targetSlot[i] = slotOf.applyAsInt(op.target());
                int w = widthOf.applyAsInt(op.target());
                targetMask[i] = w >= Long.SIZE ? -1L : (1L << w) - 1;
            }
        }
        opsIn = new int[ns][];
        opsAt = new int[ns][];
        for (int st = 0; st < ns; st++) {
            opsIn[st] = in.get(st).stream().mapToInt(Integer::intValue).toArray();
            opsAt[st] = in.get(st).stream().mapToInt(i -> ops.get(i).position()).toArray();
            for (int k = 1; k < opsAt[st].length; k++) {
                if (opsAt[st][k] < opsAt[st][k - 1]) {
                    throw new IllegalArgumentException("parser checksum operations of state " + graph.states().get(st).name()
                            + " out of order");
                }
            }
        }
        maxSteps = ns * (1 + Short.MAX_VALUE);
        headerFields = new FieldRef[nh][];
        for (int h = 0; h < nh; h++) {
            HeaderType t = graph.headers().get(h).type();
            headerFields[h] = new FieldRef[t.fields().size()];
            for (int f = 0; f < headerFields[h].length; f++) {
                headerFields[h][f] = graph.field(graph.headers().get(h).name() + "." + t.fields().get(f).name());
            }
        }
        sum = new long[engines.size()];
        depositing = new boolean[engines.size()];
        depositSlot = new int[engines.size()];
        depositMask = new long[engines.size()];
    }

    /** Whether any operation runs (else {@link #run} is never needed). */
    public boolean any() {
        return kind.length > 0;
    }

    /** Every field an operation reads: a lean parse must extract them. */
    public List<FieldRef> fieldsRead() {
        List<FieldRef> out = new ArrayList<>();
        for (FieldRef[] fs : fields) {
            out.addAll(List.of(fs));
        }
        if (deposits()) {
            for (FieldRef[] fs : headerFields) {
                out.addAll(List.of(fs));
            }
        }
        return out;
    }

    private boolean deposits() {
        for (int k : kind) {
            if (k == ParserChecksumOp.Kind.DEPOSIT.ordinal()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs the operations over the accepted parse {@code r} that {@code parser} made of the frame
     * {@code buf[off .. off+caplen)} of {@code wireLen} bytes, writing their results into {@code phv}.
     */
    public void run(PacketParser parser, byte[] buf, int off, int caplen, int wireLen, ParseResult r, long[] phv) {
        for (int e = 0; e < sum.length; e++) {
            sum[e] = 0;
            depositing[e] = false;
        }
        int readable = Math.min(caplen, parser.windowBytes());
        int state = 0;
        int cursor = 0;
        for (int steps = 0; state >= 0 && steps < maxSteps; steps++) {
            int[] ops = g.ops[state];
            int[] mine = opsIn[state];
            int[] at = opsAt[state];
            int k = 0;
            for (int i = 0; ; i++) {
                for (; k < mine.length && at[k] == i; k++) {
                    apply(mine[k], r, phv);
                }
                if (i == ops.length) {
                    break;
                }
                int op = ops[i];
                if (op < 0) {
                    cursor += -1 - op;
                    continue;
                }
                for (int e = 0; e < sum.length; e++) {
                    if (depositing[e]) {
                        sum[e] += words(r, headerFields[op], true);
                    }
                }
                cursor += g.hdrFixedBytes[op] + r.varbitLength(op);
            }
            // the branch the parse took: decided by the values it read, so the same again
            state = g.keyWord[state].length == 0 ? g.next[state][0]
                    : parser.selectGeneral(buf, off, cursor, readable, caplen, wireLen, state, r);
        }
        for (int e = 0; e < sum.length; e++) {
            if (depositing[e]) {
                phv[depositSlot[e]] = fold(sum[e]) & depositMask[e];
            }
        }
    }

    private void apply(int op, ParseResult r, long[] phv) {
        int e = engine[op];
        switch (kind[op]) {
            case 0 -> sum[e] += words(r, fields[op], false); // ADD
            case 1 -> sum[e] += words(r, fields[op], true); // SUBTRACT
            case 2 -> phv[targetSlot[op]] = fold(sum[e]) != 0xFFFF ? 1 : 0; // VERIFY
            case 3 -> phv[targetSlot[op]] = fold(sum[e]) & targetMask[op]; // GET
            default -> { // DEPOSIT: written once the parse is over
                depositing[e] = true;
                depositSlot[e] = targetSlot[op];
                depositMask[e] = targetMask[op];
            }
        }
    }

    /** The fields' 16-bit words (their complements when {@code negate}), concatenated big-endian, summed unfolded. */
    private static long words(ParseResult r, FieldRef[] fs, boolean negate) {
        long s = 0;
        int partial = 0;
        int partialBits = 0;
        for (FieldRef f : fs) {
            int top = f.bits() - Long.SIZE * (f.words() - 1);
            for (int w = 0; w < f.words(); w++) {
                long value = r.word(f, w);
                int left = w == 0 ? top : Long.SIZE;
                while (left > 0) {
                    int take = Math.min(16 - partialBits, left);
                    partial = (partial << take) | (int) ((value >>> (left - take)) & ((1L << take) - 1));
                    partialBits += take;
                    left -= take;
                    if (partialBits == 16) {
                        s += negate ? ~partial & 0xFFFF : partial;
                        partial = 0;
                        partialBits = 0;
                    }
                }
            }
        }
        return s;
    }

    /** The ones'-complement fold of an unfolded sum into 16 bits. */
    static int fold(long s) {
        while ((s >>> 16) != 0) {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int) s;
    }
}
