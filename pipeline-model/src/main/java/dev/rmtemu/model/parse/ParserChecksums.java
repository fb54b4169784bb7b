package dev.rmtemu.model.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The parser's checksum engines ({@link ParserChecksumOp}) run over an accepted parse: in the
 * order the headers were extracted, each header's operations after it, each engine a 16-bit
 * ones'-complement sum (RFC 1071; a subtract adds the words' complements, RFC 1624). Results go
 * into PHV slots. A state is visited exactly when the header it extracts is, so running the
 * operations after their header in extraction order is running them where the parser met them.
 * Allocates nothing per packet.
 */
public final class ParserChecksums {
    private final int[][] opsAfter;
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
        int nh = graph.headers().size();
        List<List<Integer>> after = new ArrayList<>();
        for (int h = 0; h < nh; h++) {
            after.add(new ArrayList<>());
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
            after.get(graph.header(op.after()).index()).add(i);
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
        opsAfter = new int[nh][];
        headerFields = new FieldRef[nh][];
        for (int h = 0; h < nh; h++) {
            opsAfter[h] = after.get(h).stream().mapToInt(Integer::intValue).toArray();
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
        for (int h = 0; h < headerFields.length; h++) {
            if (opsAfter[h].length > 0 || deposits()) {
                out.addAll(List.of(headerFields[h]));
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

    /** Runs the operations over the accepted parse {@code r}, writing their results into {@code phv}. */
    public void run(ParseResult r, long[] phv) {
        for (int e = 0; e < sum.length; e++) {
            sum[e] = 0;
            depositing[e] = false;
        }
        for (int i = 0, n = r.extractedCount(); i < n; i++) {
            int h = r.extractedHeader(i);
            for (int e = 0; e < sum.length; e++) {
                if (depositing[e]) {
                    sum[e] += words(r, headerFields[h], true);
                }
            }
            for (int op : opsAfter[h]) {
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
        }
        for (int e = 0; e < sum.length; e++) {
            if (depositing[e]) {
                phv[depositSlot[e]] = fold(sum[e]) & depositMask[e];
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
