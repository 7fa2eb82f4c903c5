#import <Foundation/Foundation.h>

#define MAX_ITEMS 10
#define SQUARE(x) ((x) * (x))

typedef NS_ENUM(NSInteger, Direction) {
    DirectionUp,
    DirectionDown,
};

typedef NS_OPTIONS(NSUInteger, Flags) {
    FlagA = 1 << 0,
};

typedef struct {
    int x, y;
} Point2;

struct Node {
    int value;
};

enum Color { Red, Green };

@class Forward;
@protocol Later;

@protocol Drawable <NSObject>
- (void)draw;
@optional
- (void)drawInRect:(CGRect)rect withColor:(id)color;
@property (nonatomic, readonly) BOOL visible;
@end

NS_ASSUME_NONNULL_BEGIN

@interface Shape : NSObject <Drawable> {
    @private
    int _sides;
}
@property (nonatomic, copy) NSString *name;
@property (nonatomic, assign) NSInteger sides, corners;
+ (instancetype)shapeWithName:(NSString *)name;
- (instancetype)initWithName:(NSString *)name sides:(NSInteger)sides NS_DESIGNATED_INITIALIZER;
- (void)log:(NSString *)format, ... NS_FORMAT_FUNCTION(1, 2);
- (void)pair:(int)a :(int)b;
@end

@interface Shape (Geometry)
- (double)area;
@end

@interface Shape ()
@property (nonatomic) int hidden;
@end

@interface Box<ObjectType> : NSObject
- (void)put:(ObjectType)item;
@end

NS_ASSUME_NONNULL_END

static int counter(void);

void ShapeLog(NSString *message) {
    NSLog(@"%@", message);
}

@implementation Shape
@synthesize name = _name;

+ (instancetype)shapeWithName:(NSString *)name {
    return [[self alloc] initWithName:name sides:0];
}

- (instancetype)initWithName:(NSString *)name sides:(NSInteger)sides {
    if ((self = [super init])) {
        _name = [name copy];
        void (^block)(void) = ^{ NSLog(@"x"); };
        block();
    }
    return self;
}

- (void)draw {
}

- (void)log:(NSString *)format, ... {
}

- (void)pair:(int)a :(int)b {
}

@end

@implementation Shape (Geometry)

- (double)area
{
    return 0;
}

@end

static int counter(void) {
    return 0;
}
