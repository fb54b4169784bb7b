package dev.rmtemu.model.register;

/**
 * A register action flattened into int codes and primitive arrays: what
 * {@link KernelCompiler} turns into the class packets run. Built once from the
 * declarative form; semantics are those documented on {@link RegisterAction}.
 */
final class CompiledAction {
    // operand kinds
    static final int REG_LO = 0;
    static final int REG_HI = 1;
    static final int IN_LO = 2;
    static final int IN_HI = 3;
    static final int CONST = 4;
    /** A register-file row: the word at {@link #paramBase} + row of the lo storage. */
    static final int PARAM = 5;
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

    final long mask;
    /** Where the array's register-file rows start in its lo storage: the array's size. */
    final int paramBase;
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

    CompiledAction(long mask, int paramBase, int nConditions, int[] condA, long[] condAConst, int[] condOp, int[] condB,
                   long[] condBConst, int loBranches, int hiBranches, int[] truth, int[] op, int[] a, long[] aConst,
                   int[] b, long[] bConst, int output, int outputTruth) {
        this.mask = mask;
        this.paramBase = paramBase;
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
    }
}
