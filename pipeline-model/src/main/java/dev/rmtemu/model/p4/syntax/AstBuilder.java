package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.ast.Annotation;
import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Identifier;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.ParserState;
import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.ast.TableProperty;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.p4.preprocess.PreprocessedSource;
import dev.rmtemu.model.p4.source.SourcePosition;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the AST from a parse tree without syntax errors (P4Syntax builds none from a tree
 * with them, whose recovered subtrees have holes), each node at its user's FILE:LINE:COL.
 * The checks the grammar leaves open are LexicalChecks', made before.
 */
final class AstBuilder {
    private final PreprocessedSource source;

    AstBuilder(PreprocessedSource source) {
        this.source = source;
    }

    Program program(P4Parser.ProgramContext ctx) {
        List<Declaration> out = new ArrayList<>();
        for (P4Parser.DeclarationContext d : ctx.declaration()) {
            Declaration decl = declaration(d);
            if (decl != null) {
                out.add(decl);
            }
        }
        return new Program(out);
    }

    private SourcePosition pos(ParserRuleContext ctx) {
        return pos(ctx.getStart());
    }

    private SourcePosition pos(Token t) {
        return source.positionAt(t.getType() == Token.EOF ? source.text().length() : t.getStartIndex());
    }

    // ------------------------------------------------------------------ declarations

    private Declaration declaration(P4Parser.DeclarationContext d) {
        if (d.exception != null) {
            return null;
        }
        ParseTree c = d.getChild(0);
        if (c instanceof P4Parser.ConstantDeclarationContext x) {
            return constant(x);
        } else if (c instanceof P4Parser.ExternDeclarationContext x) {
            return extern(x);
        } else if (c instanceof P4Parser.ActionDeclarationContext x) {
            return action(x);
        } else if (c instanceof P4Parser.ParserDeclarationContext x) {
            return parser(x);
        } else if (c instanceof P4Parser.ControlDeclarationContext x) {
            return control(x);
        } else if (c instanceof P4Parser.TypeDeclarationContext x) {
            return typeDeclaration(x);
        } else if (c instanceof P4Parser.InstantiationContext x) {
            return instantiation(x);
        } else if (c instanceof P4Parser.ErrorDeclarationContext x) {
            return new Declaration.ErrorMembers(pos(x), identifiers(x.name()));
        } else if (c instanceof P4Parser.MatchKindDeclarationContext x) {
            return new Declaration.MatchKinds(pos(x), identifiers(x.name()));
        } else if (c instanceof P4Parser.FunctionDeclarationContext x) {
            return function(x);
        }
        return null;
    }

    private List<Identifier> identifiers(List<P4Parser.NameContext> names) {
        List<Identifier> out = new ArrayList<>();
        for (P4Parser.NameContext n : names) {
            out.add(new Identifier(pos(n), n.getText()));
        }
        return out;
    }

    private List<Identifier> typeParameters(P4Parser.TypeParametersContext ctx) {
        return ctx == null ? List.of() : identifiers(ctx.name());
    }

    private Declaration.Constant constant(P4Parser.ConstantDeclarationContext x) {
        return new Declaration.Constant(pos(x), annotations(x.annotations()), type(x.typeRef()), text(x.name()), expression(x.expression()));
    }

    private Declaration.Variable variable(P4Parser.VariableDeclarationContext x) {
        return new Declaration.Variable(pos(x), annotations(x.annotations()), type(x.typeRef()), text(x.name()),
                x.expression() == null ? null : expression(x.expression()));
    }

    private Declaration.Instantiation instantiation(P4Parser.InstantiationContext x) {
        List<Declaration> init = new ArrayList<>();
        if (x.objInitializer() != null) {
            for (P4Parser.ObjDeclarationContext o : x.objInitializer().objDeclaration()) {
                init.add(o.functionDeclaration() != null ? function(o.functionDeclaration()) : instantiation(o.instantiation()));
            }
        }
        return new Declaration.Instantiation(pos(x), annotations(x.annotations()), type(x.typeRef()), arguments(x.argumentList()),
                text(x.name()), init);
    }

    private Declaration.Action action(P4Parser.ActionDeclarationContext x) {
        return new Declaration.Action(pos(x), annotations(x.annotations()), text(x.name()), parameters(x.parameterList()), block(x.blockStatement()));
    }

    private Declaration.Function function(P4Parser.FunctionDeclarationContext x) {
        P4Parser.FunctionPrototypeContext p = x.functionPrototype();
        return new Declaration.Function(pos(x), annotations(x.annotations()), typeOrVoid(p.typeOrVoid()), text(p.name()),
                typeParameters(p.typeParameters()), parameters(p.parameterList()), block(x.blockStatement()));
    }

    private Declaration extern(P4Parser.ExternDeclarationContext x) {
        if (x.functionPrototype() != null) {
            return new Declaration.ExternFunction(pos(x), annotations(x.annotations()), prototype(x.functionPrototype(), List.of(), false, x));
        }
        List<Declaration.Method> methods = new ArrayList<>();
        for (P4Parser.MethodPrototypeContext m : x.methodPrototype()) {
            if (m.functionPrototype() != null) {
                methods.add(prototype(m.functionPrototype(), annotations(m.annotations()), m.ABSTRACT() != null, m));
            } else if (m.name() != null) {
                methods.add(new Declaration.Method(pos(m), annotations(m.annotations()), false, null, text(m.name()), List.of(),
                        parameters(m.parameterList())));
            }
        }
        return new Declaration.Extern(pos(x), annotations(x.annotations()), text(x.name()), typeParameters(x.typeParameters()), methods);
    }

    private Declaration.Method prototype(P4Parser.FunctionPrototypeContext p, List<Annotation> annotations, boolean isAbstract,
            ParserRuleContext at) {
        return new Declaration.Method(pos(at), annotations, isAbstract, typeOrVoid(p.typeOrVoid()), text(p.name()),
                typeParameters(p.typeParameters()), parameters(p.parameterList()));
    }

    private Declaration typeDeclaration(P4Parser.TypeDeclarationContext x) {
        if (x.derivedTypeDeclaration() != null) {
            return derived(x.derivedTypeDeclaration());
        }
        if (x.typedefDeclaration() != null) {
            P4Parser.TypedefDeclarationContext t = x.typedefDeclaration();
            return new Declaration.Typedef(pos(t), annotations(t.annotations()), t.TYPE() != null,
                    t.typeRef() == null ? null : type(t.typeRef()),
                    t.derivedTypeDeclaration() == null ? null : derived(t.derivedTypeDeclaration()), text(t.name()));
        }
        if (x.parserTypeDeclaration() != null) {
            return parserType(x.parserTypeDeclaration());
        }
        if (x.controlTypeDeclaration() != null) {
            return controlType(x.controlTypeDeclaration());
        }
        P4Parser.PackageTypeDeclarationContext p = x.packageTypeDeclaration();
        return new Declaration.BlockType(pos(p), annotations(p.annotations()), Declaration.BlockType.BlockKind.PACKAGE, text(p.name()),
                typeParameters(p.typeParameters()), parameters(p.parameterList()));
    }

    private Declaration.BlockType parserType(P4Parser.ParserTypeDeclarationContext p) {
        return new Declaration.BlockType(pos(p), annotations(p.annotations()), Declaration.BlockType.BlockKind.PARSER, text(p.name()),
                typeParameters(p.typeParameters()), parameters(p.parameterList()));
    }

    private Declaration.BlockType controlType(P4Parser.ControlTypeDeclarationContext p) {
        return new Declaration.BlockType(pos(p), annotations(p.annotations()), Declaration.BlockType.BlockKind.CONTROL, text(p.name()),
                typeParameters(p.typeParameters()), parameters(p.parameterList()));
    }

    private Declaration derived(P4Parser.DerivedTypeDeclarationContext d) {
        if (d.headerTypeDeclaration() != null) {
            P4Parser.HeaderTypeDeclarationContext h = d.headerTypeDeclaration();
            return new Declaration.StructLike(pos(h), annotations(h.annotations()), Declaration.StructLike.Kind.HEADER, text(h.name()),
                    typeParameters(h.typeParameters()), fields(h.structField()));
        }
        if (d.headerUnionDeclaration() != null) {
            P4Parser.HeaderUnionDeclarationContext h = d.headerUnionDeclaration();
            return new Declaration.StructLike(pos(h), annotations(h.annotations()), Declaration.StructLike.Kind.HEADER_UNION, text(h.name()),
                    typeParameters(h.typeParameters()), fields(h.structField()));
        }
        if (d.structTypeDeclaration() != null) {
            P4Parser.StructTypeDeclarationContext h = d.structTypeDeclaration();
            return new Declaration.StructLike(pos(h), annotations(h.annotations()), Declaration.StructLike.Kind.STRUCT, text(h.name()),
                    typeParameters(h.typeParameters()), fields(h.structField()));
        }
        P4Parser.EnumDeclarationContext e = d.enumDeclaration();
        List<Declaration.EnumMember> members = new ArrayList<>();
        if (e.typeRef() == null) {
            List<P4Parser.NameContext> names = e.name();
            for (int i = 1; i < names.size(); i++) {
                members.add(new Declaration.EnumMember(pos(names.get(i)), text(names.get(i)), null));
            }
        } else {
            for (P4Parser.SpecifiedIdentifierContext s : e.specifiedIdentifier()) {
                members.add(new Declaration.EnumMember(pos(s), text(s.name()), expression(s.expression())));
            }
        }
        return new Declaration.Enum(pos(e), annotations(e.annotations()), e.typeRef() == null ? null : type(e.typeRef()),
                text(e.name(0)), members);
    }

    private List<Declaration.Field> fields(List<P4Parser.StructFieldContext> fs) {
        List<Declaration.Field> out = new ArrayList<>();
        for (P4Parser.StructFieldContext f : fs) {
            out.add(new Declaration.Field(pos(f), annotations(f.annotations()), type(f.typeRef()), text(f.name())));
        }
        return out;
    }

    private Declaration.Parser parser(P4Parser.ParserDeclarationContext x) {
        List<Declaration> locals = new ArrayList<>();
        for (P4Parser.ParserLocalElementContext l : x.parserLocalElement()) {
            if (l.constantDeclaration() != null) {
                locals.add(constant(l.constantDeclaration()));
            } else if (l.instantiation() != null) {
                locals.add(instantiation(l.instantiation()));
            } else if (l.variableDeclaration() != null) {
                locals.add(variable(l.variableDeclaration()));
            } else if (l.valueSetDeclaration() != null) {
                P4Parser.ValueSetDeclarationContext v = l.valueSetDeclaration();
                locals.add(new Declaration.ValueSet(pos(v), annotations(v.annotations()), type(v.typeRef()), expression(v.expression()),
                        text(v.name())));
            }
        }
        List<ParserState> states = new ArrayList<>();
        for (P4Parser.ParserStateContext s : x.parserState()) {
            states.add(state(s));
        }
        return new Declaration.Parser(pos(x), parserType(x.parserTypeDeclaration()), constructorParameters(x.constructorParameters()),
                locals, states);
    }

    private List<Parameter> constructorParameters(P4Parser.ConstructorParametersContext c) {
        return c == null ? List.of() : parameters(c.parameterList());
    }

    private ParserState state(P4Parser.ParserStateContext s) {
        List<Statement> body = new ArrayList<>();
        for (P4Parser.ParserStatementContext p : s.parserStatement()) {
            addIfBuilt(body, parserStatement(p));
        }
        ParserState.Transition transition = null;
        P4Parser.TransitionStatementContext t = s.transitionStatement();
        if (t != null && t.stateExpression() != null) {
            P4Parser.StateExpressionContext e = t.stateExpression();
            if (e.name() != null) {
                transition = new ParserState.Transition(pos(t), text(e.name()), null);
            } else if (e.selectExpression() != null) {
                P4Parser.SelectExpressionContext sel = e.selectExpression();
                List<ParserState.SelectCase> cases = new ArrayList<>();
                for (P4Parser.SelectCaseContext c : sel.selectCase()) {
                    cases.add(new ParserState.SelectCase(pos(c), keyset(c.keysetExpression()), text(c.name())));
                }
                transition = new ParserState.Transition(pos(t), null,
                        new ParserState.Select(pos(sel), expressions(sel.expressionList()), cases));
            }
        }
        return new ParserState(pos(s), annotations(s.annotations()), text(s.name()), body, transition);
    }

    private Statement parserStatement(P4Parser.ParserStatementContext p) {
        if (p.assignmentOrMethodCallStatement() != null) {
            return assignmentOrCall(p.assignmentOrMethodCallStatement());
        } else if (p.directApplication() != null) {
            return directApplication(p.directApplication());
        } else if (p.parserBlockStatement() != null) {
            P4Parser.ParserBlockStatementContext b = p.parserBlockStatement();
            List<Statement> body = new ArrayList<>();
            for (P4Parser.ParserStatementContext s : b.parserStatement()) {
                addIfBuilt(body, parserStatement(s));
            }
            return new Statement.Block(pos(b), annotations(b.annotations()), body);
        } else if (p.constantDeclaration() != null) {
            return new Statement.Local(pos(p), constant(p.constantDeclaration()));
        } else if (p.variableDeclaration() != null) {
            return new Statement.Local(pos(p), variable(p.variableDeclaration()));
        } else if (p.emptyStatement() != null) {
            return new Statement.Empty(pos(p));
        } else if (p.conditionalStatement() != null) {
            return conditional(p.conditionalStatement());
        }
        return null;
    }

    private Declaration.Control control(P4Parser.ControlDeclarationContext x) {
        List<Declaration> locals = new ArrayList<>();
        for (P4Parser.ControlLocalDeclarationContext l : x.controlLocalDeclaration()) {
            if (l.constantDeclaration() != null) {
                locals.add(constant(l.constantDeclaration()));
            } else if (l.actionDeclaration() != null) {
                locals.add(action(l.actionDeclaration()));
            } else if (l.tableDeclaration() != null) {
                locals.add(table(l.tableDeclaration()));
            } else if (l.instantiation() != null) {
                locals.add(instantiation(l.instantiation()));
            } else if (l.variableDeclaration() != null) {
                locals.add(variable(l.variableDeclaration()));
            }
        }
        return new Declaration.Control(pos(x), controlType(x.controlTypeDeclaration()), constructorParameters(x.constructorParameters()),
                locals, block(x.blockStatement()));
    }

    private Declaration.Table table(P4Parser.TableDeclarationContext t) {
        List<TableProperty> properties = new ArrayList<>();
        for (P4Parser.TablePropertyContext p : t.tableProperty()) {
            if (p.KEY() != null) {
                List<TableProperty.KeyElement> elements = new ArrayList<>();
                for (P4Parser.KeyElementContext k : p.keyElement()) {
                    elements.add(new TableProperty.KeyElement(pos(k), expression(k.expression()), text(k.name()), annotations(k.annotations())));
                }
                properties.add(new TableProperty.Key(pos(p), elements));
            } else if (p.ACTIONS() != null) {
                List<TableProperty.ActionRef> actions = new ArrayList<>();
                for (P4Parser.ActionRefContext a : p.actionRef()) {
                    actions.add(actionRef(a));
                }
                properties.add(new TableProperty.Actions(pos(p), actions));
            } else if (p.ENTRIES() != null) {
                List<TableProperty.Entry> entries = new ArrayList<>();
                for (P4Parser.EntryContext e : p.entry()) {
                    Expression priority = null;
                    if (e.entryPriority() != null) {
                        P4Parser.EntryPriorityContext ep = e.entryPriority();
                        priority = ep.INTEGER() != null ? integer(ep.INTEGER().getSymbol()) : expression(ep.expression());
                    }
                    entries.add(new TableProperty.Entry(pos(e), e.CONST() != null, priority, keyset(e.keysetExpression()),
                            actionRef(e.actionRef()), annotations(e.annotations())));
                }
                properties.add(new TableProperty.Entries(pos(p), p.CONST() != null, entries));
            } else if (p.nonTableKwName() != null) {
                properties.add(new TableProperty.Property(pos(p), annotations(p.annotations()), p.CONST() != null, p.nonTableKwName().getText(),
                        expression(p.expression())));
            }
        }
        return new Declaration.Table(pos(t), annotations(t.annotations()), text(t.name()), properties);
    }

    private TableProperty.ActionRef actionRef(P4Parser.ActionRefContext a) {
        return new TableProperty.ActionRef(pos(a), annotations(a.annotations()), (a.DOT() != null ? "." : "") + text(a.name()),
                a.LPAREN() == null ? null : arguments(a.argumentList()));
    }

    // ------------------------------------------------------------------ parameters, annotations, types

    private List<Parameter> parameters(P4Parser.ParameterListContext ctx) {
        List<Parameter> out = new ArrayList<>();
        if (ctx == null) {
            return out;
        }
        for (P4Parser.ParameterContext p : ctx.parameter()) {
            Parameter.Direction dir = Parameter.Direction.NONE;
            if (p.direction() != null) {
                dir = switch (p.direction().getText()) {
                    case "in" -> Parameter.Direction.IN;
                    case "out" -> Parameter.Direction.OUT;
                    default -> Parameter.Direction.INOUT;
                };
            }
            out.add(new Parameter(pos(p), annotations(p.annotations()), dir, type(p.typeRef()), text(p.name()),
                    p.expression() == null ? null : expression(p.expression())));
        }
        return out;
    }

    private List<Annotation> annotations(P4Parser.AnnotationsContext ctx) {
        List<Annotation> out = new ArrayList<>();
        if (ctx == null) {
            return out;
        }
        for (P4Parser.AnnotationContext a : ctx.annotation()) {
            if (a.PRAGMA_LINE() != null) {
                String[] words = a.PRAGMA_LINE().getText().substring("@pragma".length()).strip().split("\\s+", 2);
                out.add(new Annotation(pos(a), words[0], words.length > 1 ? List.of(words[1].split("\\s+")) : List.of()));
                continue;
            }
            List<String> body = new ArrayList<>();
            ParserRuleContext b = a.annotationBody() != null ? a.annotationBody() : a.structuredAnnotationBody();
            if (b != null) {
                tokens(b, body);
            }
            out.add(new Annotation(pos(a), text(a.name()), body));
        }
        return out;
    }

    private static void tokens(ParseTree t, List<String> out) {
        if (t instanceof TerminalNode n) {
            if (n.getSymbol().getType() != Token.EOF) {
                out.add(n.getText());
            }
            return;
        }
        for (int i = 0; i < t.getChildCount(); i++) {
            tokens(t.getChild(i), out);
        }
    }

    private TypeRef typeOrVoid(P4Parser.TypeOrVoidContext t) {
        if (t == null) {
            return null;
        }
        return t.VOID() != null ? new TypeRef.Void(pos(t)) : type(t.typeRef());
    }

    TypeRef type(P4Parser.TypeRefContext t) {
        if (t == null) {
            return null;
        }
        if (t.baseType() != null) {
            P4Parser.BaseTypeContext b = t.baseType();
            Expression width = null;
            if (b.INTEGER() != null) {
                width = integer(b.INTEGER().getSymbol());
            } else if (b.expression() != null) {
                width = expression(b.expression());
            }
            return new TypeRef.Base(pos(b), b.getStart().getText(), width);
        }
        if (t.tupleType() != null) {
            return new TypeRef.Tuple(pos(t), typeArguments(t.tupleType().typeArgumentList()));
        }
        if (t.headerStackType() != null) {
            P4Parser.HeaderStackTypeContext h = t.headerStackType();
            TypeRef element = h.specializedType() != null ? specialized(h.specializedType()) : named(h.typeName(), List.of());
            return new TypeRef.Stack(pos(h), element, expression(h.expression()));
        }
        if (t.specializedType() != null) {
            return specialized(t.specializedType());
        }
        return named(t.typeName(), List.of());
    }

    private TypeRef specialized(P4Parser.SpecializedTypeContext s) {
        return named(s.typeName(), typeArguments(s.typeArgumentList()));
    }

    private TypeRef named(P4Parser.TypeNameContext n, List<TypeRef> args) {
        if (n == null) {
            return null;
        }
        return new TypeRef.Named(pos(n), text(n.name()), n.DOT() != null, args);
    }

    private List<TypeRef> typeArguments(P4Parser.TypeArgumentListContext ctx) {
        List<TypeRef> out = new ArrayList<>();
        if (ctx == null) {
            return out;
        }
        for (P4Parser.TypeArgContext a : ctx.typeArg()) {
            if (a.DONTCARE() != null) {
                out.add(new TypeRef.DontCare(pos(a)));
            } else if (a.VOID() != null) {
                out.add(new TypeRef.Void(pos(a)));
            } else {
                out.add(type(a.typeRef()));
            }
        }
        return out;
    }

    private static String text(ParserRuleContext ctx) {
        return ctx == null ? "" : ctx.getText();
    }

    // ------------------------------------------------------------------ statements

    private static void addIfBuilt(List<Statement> out, Statement s) {
        if (s != null) {
            out.add(s);
        }
    }

    Statement.Block block(P4Parser.BlockStatementContext b) {
        if (b == null) {
            return null;
        }
        List<Statement> body = new ArrayList<>();
        for (P4Parser.StatementOrDeclarationContext s : b.statementOrDeclaration()) {
            if (s.variableDeclaration() != null) {
                body.add(new Statement.Local(pos(s), variable(s.variableDeclaration())));
            } else if (s.constantDeclaration() != null) {
                body.add(new Statement.Local(pos(s), constant(s.constantDeclaration())));
            } else if (s.instantiation() != null) {
                body.add(new Statement.Local(pos(s), instantiation(s.instantiation())));
            } else if (s.statement() != null) {
                addIfBuilt(body, statement(s.statement()));
            }
        }
        return new Statement.Block(pos(b), annotations(b.annotations()), body);
    }

    private Statement statement(P4Parser.StatementContext s) {
        if (s == null) {
            return null;
        }
        if (s.assignmentOrMethodCallStatement() != null) {
            return assignmentOrCall(s.assignmentOrMethodCallStatement());
        } else if (s.directApplication() != null) {
            return directApplication(s.directApplication());
        } else if (s.conditionalStatement() != null) {
            return conditional(s.conditionalStatement());
        } else if (s.emptyStatement() != null) {
            return new Statement.Empty(pos(s));
        } else if (s.blockStatement() != null) {
            return block(s.blockStatement());
        } else if (s.exitStatement() != null) {
            return new Statement.Exit(pos(s));
        } else if (s.returnStatement() != null) {
            P4Parser.ReturnStatementContext r = s.returnStatement();
            return new Statement.Return(pos(r), r.expression() == null ? null : expression(r.expression()));
        } else if (s.switchStatement() != null) {
            P4Parser.SwitchStatementContext sw = s.switchStatement();
            List<Statement.SwitchCase> cases = new ArrayList<>();
            for (P4Parser.SwitchCaseContext c : sw.switchCase()) {
                P4Parser.SwitchLabelContext l = c.switchLabel();
                Expression label = l.DEFAULT() != null ? null : expression(l.expression());
                cases.add(new Statement.SwitchCase(pos(c), label, block(c.blockStatement())));
            }
            return new Statement.Switch(pos(sw), expression(sw.expression()), cases);
        }
        return null;
    }

    private Statement conditional(P4Parser.ConditionalStatementContext c) {
        return new Statement.If(pos(c), expression(c.expression()), statement(c.statement(0)),
                c.statement().size() > 1 ? statement(c.statement(1)) : null);
    }

    private Statement assignmentOrCall(P4Parser.AssignmentOrMethodCallStatementContext a) {
        Expression target = lvalue(a.lvalue());
        if (a.ASSIGN() != null) {
            return new Statement.Assignment(pos(a), target, expression(a.expression()));
        }
        Expression.Call call = new Expression.Call(pos(a), target, typeArguments(a.typeArgumentList()), arguments(a.argumentList()));
        return new Statement.CallStatement(pos(a), call);
    }

    private Statement directApplication(P4Parser.DirectApplicationContext d) {
        TypeRef type = d.specializedType() != null ? specialized(d.specializedType()) : named(d.typeName(), List.of());
        String name = type instanceof TypeRef.Named n ? n.name() : "";
        Expression callee = new Expression.Member(pos(d), new Expression.Name(pos(d), name, false), "apply");
        return new Statement.CallStatement(pos(d), new Expression.Call(pos(d), callee, List.of(), arguments(d.argumentList())));
    }

    private Expression lvalue(P4Parser.LvalueContext l) {
        if (l instanceof P4Parser.LvalueNameContext n) {
            return new Expression.Name(pos(n), text(n.nonTypeName()), n.DOT() != null);
        } else if (l instanceof P4Parser.LvalueThisContext t) {
            return new Expression.This(pos(t));
        } else if (l instanceof P4Parser.LvalueMemberContext m) {
            return new Expression.Member(pos(m), lvalue(m.lvalue()), text(m.name()));
        } else if (l instanceof P4Parser.LvalueIndexContext i) {
            return new Expression.Index(pos(i), lvalue(i.lvalue()), expression(i.expression()));
        } else if (l instanceof P4Parser.LvalueSliceContext s) {
            return new Expression.Slice(pos(s), lvalue(s.lvalue()), expression(s.expression(0)), expression(s.expression(1)));
        }
        return new Expression.Name(pos(l), "", false);
    }

    // ------------------------------------------------------------------ expressions

    private List<Argument> arguments(P4Parser.ArgumentListContext ctx) {
        List<Argument> out = new ArrayList<>();
        if (ctx == null) {
            return out;
        }
        for (P4Parser.ArgumentContext a : ctx.argument()) {
            Expression value = a.expression() != null ? expression(a.expression()) : new Expression.DontCare(pos(a.DONTCARE().getSymbol()));
            out.add(new Argument(pos(a), a.name() == null ? null : text(a.name()), value));
        }
        return out;
    }

    private List<Expression> expressions(P4Parser.ExpressionListContext ctx) {
        List<Expression> out = new ArrayList<>();
        if (ctx == null) {
            return out;
        }
        for (P4Parser.ExpressionContext e : ctx.expression()) {
            out.add(expression(e));
        }
        return out;
    }

    private Expression keyset(P4Parser.KeysetExpressionContext k) {
        if (k == null) {
            return null;
        }
        if (k.simpleKeysetExpression() != null) {
            return simpleKeyset(k.simpleKeysetExpression());
        }
        P4Parser.TupleKeysetExpressionContext t = k.tupleKeysetExpression();
        List<Expression> elements = new ArrayList<>();
        if (t.reducedSimpleKeysetExpression() != null) {
            P4Parser.ReducedSimpleKeysetExpressionContext r = t.reducedSimpleKeysetExpression();
            elements.add(reducedKeyset(r.getStart(), r.MASK() != null, r.RANGE() != null, r.DEFAULT() != null, r.expression(), r));
        } else {
            for (P4Parser.SimpleKeysetExpressionContext s : t.simpleKeysetExpression()) {
                elements.add(simpleKeyset(s));
            }
        }
        return new Expression.Tuple(pos(t), elements);
    }

    private Expression simpleKeyset(P4Parser.SimpleKeysetExpressionContext s) {
        return reducedKeyset(s.getStart(), s.MASK() != null, s.RANGE() != null, s.DEFAULT() != null, s.expression(), s);
    }

    private Expression reducedKeyset(Token start, boolean mask, boolean range, boolean isDefault, List<P4Parser.ExpressionContext> es,
            ParserRuleContext at) {
        if (mask) {
            return new Expression.Mask(pos(at), expression(es.get(0)), expression(es.get(1)));
        }
        if (range) {
            return new Expression.Range(pos(at), expression(es.get(0)), expression(es.get(1)));
        }
        if (isDefault) {
            return new Expression.Default(pos(start));
        }
        if (es.isEmpty()) {
            return new Expression.DontCare(pos(start));
        }
        return expression(es.get(0));
    }

    Expression expression(P4Parser.ExpressionContext e) {
        if (e == null) {
            return null;
        }
        SourcePosition at = pos(e);
        if (e instanceof P4Parser.IntegerLiteralContext x) {
            return integer(x.INTEGER().getSymbol());
        } else if (e instanceof P4Parser.BooleanLiteralContext x) {
            return new Expression.BooleanLiteral(at, x.TRUE() != null);
        } else if (e instanceof P4Parser.StringLiteralContext x) {
            String s = x.STRING_LITERAL().getText();
            return new Expression.StringLiteral(at, s.substring(1, s.length() - 1));
        } else if (e instanceof P4Parser.ThisExpressionContext) {
            return new Expression.This(at);
        } else if (e instanceof P4Parser.NameExpressionContext x) {
            return new Expression.Name(at, text(x.nonTypeName()), x.DOT() != null);
        } else if (e instanceof P4Parser.ErrorMemberContext x) {
            return new Expression.ErrorMember(at, text(x.name()));
        } else if (e instanceof P4Parser.InvalidHeaderContext) {
            return new Expression.InvalidHeader(at);
        } else if (e instanceof P4Parser.ListExpressionContext x) {
            return new Expression.ListExpression(at, expressions(x.expressionList()));
        } else if (e instanceof P4Parser.StructExpressionContext x) {
            List<Argument> fields = new ArrayList<>();
            for (P4Parser.KvPairContext kv : x.kvPair()) {
                fields.add(new Argument(pos(kv), text(kv.name()), expression(kv.expression())));
            }
            return new Expression.StructExpression(at, fields, x.DOTS() != null);
        } else if (e instanceof P4Parser.CastContext x) {
            return new Expression.Cast(at, type(x.typeRef()), expression(x.expression()));
        } else if (e instanceof P4Parser.ParenthesizedContext x) {
            return expression(x.expression());
        } else if (e instanceof P4Parser.MemberContext x) {
            return new Expression.Member(at, expression(x.expression()), text(x.name()));
        } else if (e instanceof P4Parser.IndexContext x) {
            return new Expression.Index(at, expression(x.expression(0)), expression(x.expression(1)));
        } else if (e instanceof P4Parser.SliceContext x) {
            return new Expression.Slice(at, expression(x.expression(0)), expression(x.expression(1)), expression(x.expression(2)));
        } else if (e instanceof P4Parser.GenericFunctionCallContext x) {
            return new Expression.Call(at, new Expression.Name(at, text(x.nonTypeName()), false), typeArguments(x.typeArgumentList()),
                    arguments(x.argumentList()));
        } else if (e instanceof P4Parser.GenericCallContext x) {
            return new Expression.Call(at, expression(x.expression()), typeArguments(x.typeArgumentList()), arguments(x.argumentList()));
        } else if (e instanceof P4Parser.CallContext x) {
            return new Expression.Call(at, expression(x.expression()), List.of(), arguments(x.argumentList()));
        } else if (e instanceof P4Parser.UnaryContext x) {
            return new Expression.Unary(at, x.op.getText(), expression(x.expression()));
        } else if (e instanceof P4Parser.BinaryContext x) {
            return new Expression.Binary(pos(x.op), x.op.getText(), expression(x.expression(0)), expression(x.expression(1)));
        } else if (e instanceof P4Parser.ShiftRightContext x) {
            return new Expression.Binary(pos(x.first), ">>", expression(x.expression(0)), expression(x.expression(1)));
        } else if (e instanceof P4Parser.ConditionalContext x) {
            return new Expression.Conditional(at, expression(x.expression(0)), expression(x.expression(1)), expression(x.expression(2)));
        }
        return new Expression.Name(at, "", false);
    }

    private Expression integer(Token t) {
        IntegerLiterals.Parsed p = IntegerLiterals.parse(t.getText());
        return new Expression.IntegerLiteral(pos(t), p.value(), p.width(), p.signed(), t.getText());
    }
}
