module Members where
data Shape
  = Circle Double
  | Rect { width, height :: Double, label :: String }
  | Double :+ Double
data Expr a where
  IntE  :: Int -> Expr Int
  Rec :: { fld :: Int } -> Expr Int
class (Eq a) => Coll c a | c -> a where
  type Elem c
  cinsert :: a -> c -> c
  default cinsert :: a -> c -> c
  cinsert = undefined
instance (Show a) => Show (Maybe a) where
  showsPrec d x = undefined
  show = undefined
deriving instance Eq Shape
x, y :: Int
x = 1
y = 2
f :: Int -> Int
f 0 = 1
f n = n * f (n - 1)
  where go k = k
        m = 3

x `op` y = x
(<->) a b = a
h = g where g = 1
