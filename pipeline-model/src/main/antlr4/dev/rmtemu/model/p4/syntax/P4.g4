/*
 * P4_16 (specification v1.2.x), written for rmtemu from the specification's grammar appendix.
 *
 * Differences from the appendix, and why:
 * - One kind of identifier. The appendix's lexer tells type names from other names with a
 *   symbol table; here every identifier is a `name`, and the two places where only that
 *   difference decides (a cast `(T) e` against a parenthesised expression, and `f<T>(...)`
 *   against `<`) are decided by a predicate on the names the program declares as types
 *   (TypeNames, filled by a token pre-scan before parsing).
 * - `>>` is two `>` tokens, so nested generics close (`Register<bit<8>, bit<16>>`); the AST
 *   builder checks that the two are adjacent when they mean a shift.
 * - An annotation's body is any balanced token sequence, as the specification allows for
 *   unstructured annotations; `@pragma NAME TOKENS` runs to the end of its line.
 */
grammar P4;

@parser::members {
    private TypeNames typeNames = TypeNames.EMPTY;

    /** The names the program declares as types (see TypeNames). */
    public void setTypeNames(TypeNames names) {
        this.typeNames = names;
    }

    /** Does the token {@code k} ahead begin a type (a base-type keyword or a declared type name)? */
    private boolean typeAhead(int k) {
        return typeNames.beginsType(_input, k);
    }
}

program
    : (declaration | ';')* EOF
    ;

declaration
    : constantDeclaration
    | externDeclaration
    | actionDeclaration
    | parserDeclaration
    | controlDeclaration
    | typeDeclaration
    | instantiation
    | errorDeclaration
    | matchKindDeclaration
    | functionDeclaration
    ;

nonTypeName
    : IDENTIFIER | APPLY | KEY | ACTIONS | STATE | ENTRIES | TYPE | PRIORITY
    ;

name
    : nonTypeName
    | LIST
    ;

nonTableKwName
    : IDENTIFIER | TYPE | APPLY | STATE | PRIORITY
    ;

annotations
    : annotation+
    ;

annotation
    : '@' name
    | '@' name '(' annotationBody ')'
    | '@' name '[' structuredAnnotationBody ']'
    | PRAGMA_LINE
    ;

annotationBody
    : (annotationToken | '(' annotationBody ')')*
    ;

annotationToken
    : ~('(' | ')')
    ;

structuredAnnotationBody
    : expressionList ','?
    | kvPair (',' kvPair)* ','?
    ;

kvPair
    : name '=' expression
    ;

parameterList
    : (parameter (',' parameter)*)?
    ;

parameter
    : annotations? direction? typeRef name ('=' expression)?
    ;

direction
    : IN | OUT | INOUT
    ;

packageTypeDeclaration
    : annotations? PACKAGE name typeParameters? '(' parameterList ')'
    ;

instantiation
    : annotations? typeRef '(' argumentList ')' name ('=' objInitializer)? ';'
    ;

objInitializer
    : '{' objDeclaration* '}'
    ;

objDeclaration
    : functionDeclaration
    | instantiation
    ;

constructorParameters
    : '(' parameterList ')'
    ;

// ---------------------------------------------------------------- parser

parserDeclaration
    : parserTypeDeclaration constructorParameters? '{' parserLocalElement* parserState+ '}'
    ;

parserLocalElement
    : constantDeclaration
    | instantiation
    | variableDeclaration
    | valueSetDeclaration
    ;

parserTypeDeclaration
    : annotations? PARSER name typeParameters? '(' parameterList ')'
    ;

parserState
    : annotations? STATE name '{' parserStatement* transitionStatement? '}'
    ;

parserStatement
    : assignmentOrMethodCallStatement
    | directApplication
    | parserBlockStatement
    | constantDeclaration
    | variableDeclaration
    | emptyStatement
    | conditionalStatement
    ;

parserBlockStatement
    : annotations? '{' parserStatement* '}'
    ;

transitionStatement
    : TRANSITION stateExpression
    ;

stateExpression
    : name ';'
    | selectExpression
    ;

selectExpression
    : SELECT '(' expressionList ')' '{' selectCase* '}'
    ;

selectCase
    : keysetExpression ':' name ';'
    ;

keysetExpression
    : tupleKeysetExpression
    | simpleKeysetExpression
    ;

tupleKeysetExpression
    : '(' simpleKeysetExpression (',' simpleKeysetExpression)+ ')'
    | '(' reducedSimpleKeysetExpression ')'
    ;

simpleKeysetExpression
    : expression '&&&' expression
    | expression '..' expression
    | DEFAULT
    | DONTCARE
    | expression
    ;

reducedSimpleKeysetExpression
    : expression '&&&' expression
    | expression '..' expression
    | DEFAULT
    | DONTCARE
    ;

valueSetDeclaration
    : annotations? VALUESET '<' typeRef '>' '(' expression ')' name ';'
    ;

// ---------------------------------------------------------------- control

controlDeclaration
    : controlTypeDeclaration constructorParameters? '{' controlLocalDeclaration* APPLY blockStatement '}'
    ;

controlTypeDeclaration
    : annotations? CONTROL name typeParameters? '(' parameterList ')'
    ;

controlLocalDeclaration
    : constantDeclaration
    | actionDeclaration
    | tableDeclaration
    | instantiation
    | variableDeclaration
    ;

// ---------------------------------------------------------------- extern

externDeclaration
    : annotations? EXTERN name typeParameters? '{' methodPrototype* '}'
    | annotations? EXTERN functionPrototype ';'
    ;

methodPrototype
    : annotations? ABSTRACT? functionPrototype ';'
    | annotations? name '(' parameterList ')' ';'
    ;

functionPrototype
    : typeOrVoid name typeParameters? '(' parameterList ')'
    ;

// ---------------------------------------------------------------- types

typeRef
    : baseType
    | tupleType
    | headerStackType
    | specializedType
    | typeName
    ;

typeName
    : '.'? name
    ;

specializedType
    : typeName '<' typeArgumentList '>'
    ;

headerStackType
    : (specializedType | typeName) '[' expression ']'
    ;

tupleType
    : TUPLE '<' typeArgumentList '>'
    ;

baseType
    : BOOL
    | MATCH_KIND
    | ERROR
    | STRING
    | (BIT | INT | VARBIT) '<' INTEGER '>'
    | (BIT | INT | VARBIT) '<' '(' expression ')' '>'
    | BIT
    | INT
    ;

typeOrVoid
    : typeRef
    | VOID
    ;

typeParameters
    : '<' name (',' name)* '>'
    ;

typeArg
    : DONTCARE
    | VOID
    | typeRef
    ;

typeArgumentList
    : typeArg (',' typeArg)*
    ;

typeDeclaration
    : derivedTypeDeclaration
    | typedefDeclaration
    | parserTypeDeclaration ';'
    | controlTypeDeclaration ';'
    | packageTypeDeclaration ';'
    ;

derivedTypeDeclaration
    : headerTypeDeclaration
    | headerUnionDeclaration
    | structTypeDeclaration
    | enumDeclaration
    ;

headerTypeDeclaration
    : annotations? HEADER name typeParameters? '{' structField* '}'
    ;

headerUnionDeclaration
    : annotations? HEADER_UNION name typeParameters? '{' structField* '}'
    ;

structTypeDeclaration
    : annotations? STRUCT name typeParameters? '{' structField* '}'
    ;

structField
    : annotations? typeRef name ';'
    ;

enumDeclaration
    : annotations? ENUM name '{' name (',' name)* ','? '}'
    | annotations? ENUM typeRef name '{' specifiedIdentifier (',' specifiedIdentifier)* ','? '}'
    ;

specifiedIdentifier
    : name '=' expression
    ;

errorDeclaration
    : ERROR '{' name (',' name)* ','? '}'
    ;

matchKindDeclaration
    : MATCH_KIND '{' name (',' name)* ','? '}'
    ;

typedefDeclaration
    : annotations? (TYPEDEF | TYPE) (derivedTypeDeclaration | typeRef) name ';'
    ;

// ---------------------------------------------------------------- statements

assignmentOrMethodCallStatement
    : lvalue '(' argumentList ')' ';'
    | lvalue '<' typeArgumentList '>' '(' argumentList ')' ';'
    | lvalue '=' expression ';'
    ;

emptyStatement
    : ';'
    ;

returnStatement
    : RETURN expression? ';'
    ;

exitStatement
    : EXIT ';'
    ;

conditionalStatement
    : IF '(' expression ')' statement (ELSE statement)?
    ;

directApplication
    : (specializedType | typeName) '.' APPLY '(' argumentList ')' ';'
    ;

statement
    : assignmentOrMethodCallStatement
    | directApplication
    | conditionalStatement
    | emptyStatement
    | blockStatement
    | exitStatement
    | returnStatement
    | switchStatement
    ;

blockStatement
    : annotations? '{' statementOrDeclaration* '}'
    ;

switchStatement
    : SWITCH '(' expression ')' '{' switchCase* '}'
    ;

switchCase
    : switchLabel ':' blockStatement?
    ;

switchLabel
    : DEFAULT
    | expression
    ;

statementOrDeclaration
    : variableDeclaration
    | constantDeclaration
    | instantiation
    | statement
    ;

// ---------------------------------------------------------------- tables

tableDeclaration
    : annotations? TABLE name '{' tableProperty* '}'
    ;

tableProperty
    : annotations? KEY '=' '{' keyElement* '}'
    | annotations? ACTIONS '=' '{' (actionRef ';')* '}'
    | annotations? CONST? ENTRIES '=' '{' entry* '}'
    | annotations? CONST? nonTableKwName '=' expression ';'
    ;

keyElement
    : expression ':' name annotations? ';'
    ;

actionRef
    : annotations? '.'? name ('(' argumentList ')')?
    ;

entry
    : CONST? entryPriority? keysetExpression ':' actionRef annotations? ';'
    ;

entryPriority
    : PRIORITY '=' INTEGER ':'
    | PRIORITY '=' '(' expression ')' ':'
    ;

actionDeclaration
    : annotations? ACTION name '(' parameterList ')' blockStatement
    ;

variableDeclaration
    : annotations? typeRef name ('=' expression)? ';'
    ;

constantDeclaration
    : annotations? CONST typeRef name '=' expression ';'
    ;

functionDeclaration
    : annotations? functionPrototype blockStatement
    ;

// ---------------------------------------------------------------- expressions

argumentList
    : (argument (',' argument)*)?
    ;

argument
    : name '=' (expression | DONTCARE)
    | expression
    | DONTCARE
    ;

expressionList
    : (expression (',' expression)*)?
    ;

lvalue
    : '.'? nonTypeName                          # lvalueName
    | THIS                                      # lvalueThis
    | lvalue '.' name                           # lvalueMember
    | lvalue '[' expression ']'                 # lvalueIndex
    | lvalue '[' expression ':' expression ']'  # lvalueSlice
    ;

/*
 * Precedence, tightest first, as the appendix's table: postfix; prefix and casts; * / %;
 * + - |+| |-| ++; << >>; &; ^; |; < > <= >=; == !=; &&; ||; ?:.
 */
expression
    : INTEGER                                                           # integerLiteral
    | (TRUE | FALSE)                                                    # booleanLiteral
    | STRING_LITERAL                                                    # stringLiteral
    | THIS                                                              # thisExpression
    | '.'? nonTypeName                                                  # nameExpression
    | ERROR '.' name                                                    # errorMember
    | '{' '#' '}'                                                       # invalidHeader
    | '{' expressionList ','? '}'                                       # listExpression
    | '{' kvPair (',' kvPair)* (',' '...')? ','? '}'                    # structExpression
    | expression '.' name                                               # member
    | expression '[' expression ']'                                     # index
    | expression '[' expression ':' expression ']'                      # slice
    | expression {typeAhead(2)}? '<' typeArgumentList '>' '(' argumentList ')' # genericCall
    | expression '(' argumentList ')'                                   # call
    | {typeAhead(2)}? '(' typeRef ')' expression                        # cast
    | '(' expression ')'                                                # parenthesized
    | op=('!' | '~' | '-' | '+') expression                             # unary
    | expression op=('*' | '/' | '%') expression                        # binary
    | expression op=('+' | '-' | '|+|' | '|-|' | '++') expression       # binary
    | expression op='<<' expression                                     # binary
    | expression first='>' second='>' expression                       # shiftRight
    | expression op='&' expression                                      # binary
    | expression op='^' expression                                      # binary
    | expression op='|' expression                                      # binary
    | expression op=('<=' | '>=' | '<' | '>') expression               # binary
    | expression op=('==' | '!=') expression                            # binary
    | expression op='&&' expression                                     # binary
    | expression op='||' expression                                     # binary
    | <assoc=right> expression '?' expression ':' expression            # conditional
    ;

// ---------------------------------------------------------------- lexer

ABSTRACT     : 'abstract';
ACTION       : 'action';
ACTIONS      : 'actions';
APPLY        : 'apply';
BOOL         : 'bool';
BIT          : 'bit';
BREAK        : 'break';
CONST        : 'const';
CONTINUE     : 'continue';
CONTROL      : 'control';
DEFAULT      : 'default';
ELSE         : 'else';
ENTRIES      : 'entries';
ENUM         : 'enum';
ERROR        : 'error';
EXIT         : 'exit';
EXTERN       : 'extern';
FALSE        : 'false';
FOR          : 'for';
HEADER       : 'header';
HEADER_UNION : 'header_union';
IF           : 'if';
IN           : 'in';
INOUT        : 'inout';
INT          : 'int';
KEY          : 'key';
LIST         : 'list';
MATCH_KIND   : 'match_kind';
OUT          : 'out';
PACKAGE      : 'package';
PARSER       : 'parser';
PRIORITY     : 'priority';
RETURN       : 'return';
SELECT       : 'select';
STATE        : 'state';
STRING       : 'string';
STRUCT       : 'struct';
SWITCH       : 'switch';
TABLE        : 'table';
THIS         : 'this';
TRANSITION   : 'transition';
TRUE         : 'true';
TUPLE        : 'tuple';
TYPE         : 'type';
TYPEDEF      : 'typedef';
VARBIT       : 'varbit';
VALUESET     : 'value_set';
VOID         : 'void';
DONTCARE     : '_';

PRAGMA_LINE  : '@pragma' [ \t] ~[\r\n]*;

IDENTIFIER   : [A-Za-z_] [A-Za-z0-9_]*;

/* Width and signedness prefixes (8w5, 4s3) and bases (0x, 0o, 0b, 0d) with '_' separators;
   the AST builder checks the digits against the base and reads the value at any precision. */
INTEGER      : ([0-9] [0-9_]* [ws])? [0-9] [0-9a-zA-Z_]*;

STRING_LITERAL : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"';

MASK         : '&&&';
RANGE        : '..';
DOTS         : '...';
SATADD       : '|+|';
SATSUB       : '|-|';
CONCAT       : '++';
SHL          : '<<';
LE           : '<=';
GE           : '>=';
EQ           : '==';
NE           : '!=';
AND          : '&&';
OR           : '||';
AT           : '@';
LPAREN       : '(';
RPAREN       : ')';
LBRACE       : '{';
RBRACE       : '}';
LBRACKET     : '[';
RBRACKET     : ']';
SEMI         : ';';
COLON        : ':';
COMMA        : ',';
DOT          : '.';
QUESTION     : '?';
ASSIGN       : '=';
LT           : '<';
GT           : '>';
PLUS         : '+';
MINUS        : '-';
STAR         : '*';
SLASH        : '/';
PERCENT      : '%';
BANG         : '!';
TILDE        : '~';
AMP          : '&';
CARET        : '^';
PIPE         : '|';
HASH         : '#';

WS           : [ \t\r\n\f]+ -> skip;
LINE_COMMENT : '//' ~[\r\n]* -> skip;
BLOCK_COMMENT: '/*' .*? '*/' -> skip;
