{-# LANGUAGE TypeFamilies #-}
module Data.Shapes
  ( Shape(..)
  , area
  ) where

import qualified Data.Map as M

-- | A shape.
data Shape
  = Circle Double
  | Rect { width :: Double, height :: Double }
  deriving (Show, Eq)

newtype Name = Name { unName :: String }

type Point = (Double, Double)

class Container f where
  empty :: f a
  insert :: a -> f a -> f a
  size :: f a -> Int
  size _ = 0

instance Container [] where
  empty = []
  insert = (:)

instance Show Name where
  show (Name n) = n

type family Elem c
type instance Elem [e] = e

data family Vec a
data instance Vec Int = VInt [Int]

-- | Area of a shape.
area :: Shape -> Double
area (Circle r) = pi * r * r
area (Rect w h) = w * h

perimeter (Circle r) = 2 * pi * r
perimeter _ = 0

(<+>) :: Point -> Point -> Point
(a, b) <+> (c, d) = (a + c, b + d)

infixl 6 <+>

origin :: Point
origin = (0, 0)

main :: IO ()
main = do
  print (area (Circle 1))
  where
    helper x = x + 1

data Expr a where
  IntE  :: Int -> Expr Int
  AddE  :: Expr Int -> Expr Int -> Expr Int

pattern Zero :: Int
pattern Zero = 0

foreign import ccall "sin" c_sin :: Double -> Double
