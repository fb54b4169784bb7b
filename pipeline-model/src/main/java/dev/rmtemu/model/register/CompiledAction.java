package dev.rmtemu.model.register;

/**
 * A register action flattened into int codes and primitive arrays, so running it
 * per packet is a few int switches over locals: no enum switch maps, no record
 * chains (branch → operand → kind) to follow. Built once from the declarative
 * form; {@link RegisterAction#execute} runs it. Semantics are those documented on
 * {@link RegisterAction}; {@code RegisterActionTest} checks both agree.
 */
final class CompiledAction {
    // operand kinds
    static final int REG_LO = 0;
    static final int REG_HI = 1;
    static final int IN_LO = 2;
    static final int IN_HI = 3;
    static final int CONST = 4;
    // ALU ops
    static final int SET = 0;
    static final int ADD = 1;
    static final int SUB = 2;
    static final int AND = 3;
    static final int OR = 4;
    static final int XOR = 5;
    static final int MIN = 6;
    static final int MAX = 7;
    // comparisons
    static final int EQ = 0;
    static final int NE = 1;
    static final int LT = 2;
    static final int LE = 3;
    static final int GT = 4;
    static final int GE = 5;
    // outputs
    static final int OUT_NONE = 0;
    static final int OUT_OLD_LO = 1;
    static final int OUT_OLD_HI = 2;
    static final int OUT_NEW_LO = 3;
    static final int OUT_NEW_HI = 4;
    static final int OUT_PREDICATE = 5;

    // package-private: KernelCompiler turns the same codes into a class of their own
    final long mask;
    final int conditions;
    final int[] condA;
    final long[] condAConst;
    final int[] condOp;
    final int[] condB;
    final long[] condBConst;
    /** Per branch: truth table, op, operand kinds; lo branches first, then hi branches. */
    final int loBranches;
    final int hiBranches;
    final int[] truth;
    final int[] op;
    final int[] a;
    final long[] aConst;
    final int[] b;
    final long[] bConst;
    final int output;
    final int outputTruth;
    /** No condition, one unconditional lo branch, output not depending on a predicate. */
    private final boolean simple;

    CompiledAction(long mask, int nConditions, int[] condA, long[] condAConst, int[] condOp, int[] condB,
                   long[] condBConst, int loBranches, int hiBranches, int[] truth, int[] op, int[] a, long[] aConst,
                   int[] b, long[] bConst, int output, int outputTruth) {
        this.mask = mask;
        this.conditions = nConditions;
        this.condA = condA;
        this.condAConst = condAConst;
        this.condOp = condOp;
        this.condB = condB;
        this.condBConst = condBConst;
        this.loBranches = loBranches;
        this.hiBranches = hiBranches;
        this.truth = truth;
        this.op = op;
        this.a = a;
        this.aConst = aConst;
        this.b = b;
        this.bConst = bConst;
        this.output = output;
        this.outputTruth = outputTruth;
        this.simple = nConditions == 0 && hiBranches == 0 && loBranches == 1 && truth[0] == 0b1111
                && outputTruth == 0b1111 && output != OUT_PREDICATE && output != OUT_NEW_HI;
    }

    long execute(long[] lo, long[] hi, int index, long inLo, long inHi) {
        long oldLo = lo[index];
        long oldHi = hi == null ? 0 : hi[index];
        if (simple) {
            long newLo = alu(op[0], operand(a[0], aConst[0], oldLo, oldHi, inLo, inHi),
                    operand(b[0], bConst[0], oldLo, oldHi, inLo, inHi));
            lo[index] = newLo;
            return output == OUT_NEW_LO ? newLo : output == OUT_OLD_LO ? oldLo : output == OUT_OLD_HI ? oldHi : 0;
        }
        return general(lo, hi, index, oldLo, oldHi, inLo, inHi);
    }

    private long general(long[] lo, long[] hi, int index, long oldLo, long oldHi, long inLo, long inHi) {
        int p = 0;
        for (int c = 0; c < conditions; c++) {
            if (compare(condOp[c], operand(condA[c], condAConst[c], oldLo, oldHi, inLo, inHi),
                    operand(condB[c], condBConst[c], oldLo, oldHi, inLo, inHi))) {
                p |= 1 << c;
            }
        }
        int bit = 1 << p;
        long newLo = oldLo;
        for (int i = 0; i < loBranches; i++) {
            if ((truth[i] & bit) != 0) {
                newLo = alu(op[i], operand(a[i], aConst[i], oldLo, oldHi, inLo, inHi),
                        operand(b[i], bConst[i], oldLo, oldHi, inLo, inHi));
                break;
            }
        }
        long newHi = oldHi;
        for (int i = loBranches; i < loBranches + hiBranches; i++) {
            if ((truth[i] & bit) != 0) {
                newHi = alu(op[i], operand(a[i], aConst[i], oldLo, oldHi, inLo, inHi),
                        operand(b[i], bConst[i], oldLo, oldHi, inLo, inHi));
                break;
            }
        }
        lo[index] = newLo;
        if (hi != null) {
            hi[index] = newHi;
        }
        if ((outputTruth & bit) == 0) {
            return 0;
        }
        switch (output) {
            case OUT_OLD_LO:
                return oldLo;
            case OUT_OLD_HI:
                return oldHi;
            case OUT_NEW_LO:
                return newLo;
            case OUT_NEW_HI:
                return newHi;
            case OUT_PREDICATE:
                return p;
            default:
                return 0;
        }
    }

    private long operand(int kind, long constant, long lo, long hi, long inLo, long inHi) {
        switch (kind) {
            case REG_LO:
                return lo;
            case REG_HI:
                return hi;
            case IN_LO:
                return inLo & mask;
            case IN_HI:
                return inHi & mask;
            default:
                return constant & mask;
        }
    }

    private long alu(int code, long x, long y) {
        long r;
        switch (code) {
            case SET:
                r = x;
                break;
            case ADD:
                r = x + y;
                break;
            case SUB:
                r = x - y;
                break;
            case AND:
                r = x & y;
                break;
            case OR:
                r = x | y;
                break;
            case XOR:
                r = x ^ y;
                break;
            case MIN:
                r = Long.compareUnsigned(x, y) <= 0 ? x : y;
                break;
            default:
                r = Long.compareUnsigned(x, y) >= 0 ? x : y;
                break;
        }
        return r & mask;
    }

    private static boolean compare(int code, long x, long y) {
        int c = Long.compareUnsigned(x, y);
        switch (code) {
            case EQ:
                return c == 0;
            case NE:
                return c != 0;
            case LT:
                return c < 0;
            case LE:
                return c <= 0;
            case GT:
                return c > 0;
            default:
                return c >= 0;
        }
    }
}
