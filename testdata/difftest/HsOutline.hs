-- HsOutline prints the definitions GHC's own parser finds in Haskell
-- files, one "FILE\tLINE\tKIND\tNAME\tPARENT" line each (see
-- outline/haskell_diff_test.go), or "FILE\t!\tREASON" for a file GHC
-- rejects. Usage: HsOutline LIBDIR FILE...
module Main (main) where

import Control.Monad (forM_)
import Control.Monad.IO.Class (liftIO)
import Data.List (intercalate)
import System.Environment (getArgs)
import System.IO

import GHC
import GHC.Data.Bag (bagToList)
import GHC.Data.FastString (mkFastString)
import GHC.Data.StringBuffer (hGetStringBuffer)
import GHC.Driver.Pipeline (preprocess)
import GHC.Driver.Session (DynFlags)
import qualified GHC.Parser as Parser
import GHC.Parser.Lexer (ParseResult (..), mkPState, unP)
import GHC.Types.Name.Occurrence (occNameString)
import GHC.Types.Name.Reader (rdrNameOcc)
import GHC.Types.SrcLoc
import GHC.Utils.Outputable (ppr, showSDocUnsafe)

main :: IO ()
main = do
  (libdir : files) <- getArgs
  hSetEncoding stdout utf8
  runGhc (Just libdir) $ do
    dflags <- getSessionDynFlags
    _ <- setSessionDynFlags dflags
    env <- getSession
    liftIO $ forM_ files $ \f -> do
      r <- preprocess env f Nothing Nothing
      case r of
        Left _ -> putStrLn (f ++ "\t!\tpreprocess")
        Right (df, hspp) -> do
          buf <- hGetStringBuffer hspp
          let loc = mkRealSrcLoc (mkFastString f) 1 1
          case unP Parser.parseModule (mkPState df buf loc) of
            POk _ (L _ m) -> mapM_ (emit f) (moduleDefs m)
            PFailed _ -> putStrLn (f ++ "\t!\tparse")

data Def = Def Int String String String -- line, kind, name, parent

emit :: FilePath -> Def -> IO ()
emit f (Def line kind name parent) =
  putStrLn (intercalate "\t" [f, show line, kind, name, parent])

lineOf :: SrcSpan -> Int
lineOf s = case srcSpanStart s of
  RealSrcLoc l _ -> srcLocLine l
  _ -> 0

nameOf :: RdrName -> String
nameOf = occNameString . rdrNameOcc

moduleDefs :: HsModule -> [Def]
moduleDefs m =
  [Def (lineOf l) "module" (showSDocUnsafe (ppr n)) "" | Just (L l n) <- [hsmodName m]]
    ++ valueDefs "" [d | L _ d <- hsmodDecls m]
    ++ concatMap (declDefs . unLoc) (hsmodDecls m)

-- valueDefs are the functions of one level: a signature and the
-- equations of its name are one definition, at the first line of either.
valueDefs :: String -> [HsDecl GhcPs] -> [Def]
valueDefs parent ds = merge [(l, n) | d <- ds, (l, n) <- names d]
  where
    names (SigD _ (TypeSig _ ns _)) = [(lineOf l, nameOf n) | L l n <- ns]
    names (SigD _ (ClassOpSig _ False ns _)) = [(lineOf l, nameOf n) | L l n <- ns]
    names (SigD _ (PatSynSig _ ns _)) = [(lineOf l, nameOf n) | L l n <- ns]
    names (ValD _ b) = bindNames b
    names (ForD _ ForeignImport {fd_name = L l n}) = [(lineOf l, nameOf n)]
    names _ = []
    merge xs = [Def l "function" n parent | (l, n) <- firsts xs []]
    firsts [] _ = []
    firsts ((l, n) : rest) seen
      | n `elem` seen = firsts rest seen
      | otherwise = (minimum (l : [l' | (l', n') <- rest, n' == n]), n) : firsts rest (n : seen)

bindNames :: HsBind GhcPs -> [(Int, String)]
bindNames FunBind {fun_id = L l n} = [(lineOf l, nameOf n)]
bindNames (PatSynBind _ PSB {psb_id = L l n}) = [(lineOf l, nameOf n)]
bindNames _ = []

declDefs :: HsDecl GhcPs -> [Def]
declDefs (TyClD _ d) = tyClDefs "" d
declDefs (InstD _ (ClsInstD _ ClsInstDecl {cid_poly_ty = ty, cid_binds = bs, cid_tyfam_insts = tfs, cid_datafam_insts = dfs})) =
  let L l _ = getLHsInstDeclHead ty
      name = instName (showSDocUnsafe (ppr ty))
   in Def (lineOf l) "impl" name ""
        : valueDefs name [ValD noExtField b | L _ b <- bagToList bs]
        ++ concat [famInst name (unLoc (feqn_tycon eqn)) (lineOf tl) Nothing | L _ (TyFamInstDecl (HsIB _ eqn@FamEqn {feqn_tycon = L tl _})) <- tfs]
        ++ concat [famInst name (unLoc (feqn_tycon eqn)) (lineOf tl) (Just (feqn_rhs eqn)) | L _ (DataFamInstDecl (HsIB _ eqn@FamEqn {feqn_tycon = L tl _})) <- dfs]
declDefs (InstD _ (DataFamInstD _ (DataFamInstDecl (HsIB _ eqn@FamEqn {feqn_tycon = L tl _})))) =
  famInst "" (unLoc (feqn_tycon eqn)) (lineOf tl) (Just (feqn_rhs eqn))
declDefs (InstD _ (TyFamInstD _ (TyFamInstDecl (HsIB _ eqn@FamEqn {feqn_tycon = L tl _})))) =
  famInst "" (unLoc (feqn_tycon eqn)) (lineOf tl) Nothing
declDefs _ = []

-- instName is "Show (Maybe a)" for "forall a. Show a => Show (Maybe a)".
instName :: String -> String
instName s = unwords (words (dropContext s))
  where
    dropContext t = case breakOn "=>" t of
      Just rest -> rest
      Nothing -> t
    breakOn pat t = go t
      where
        go [] = Nothing
        go x@(_ : xs)
          | take (length pat) x == pat = Just (drop (length pat) x)
          | otherwise = go xs

famInst :: String -> RdrName -> Int -> Maybe (HsDataDefn GhcPs) -> [Def]
famInst parent n line rhs =
  Def line "type" (nameOf n) parent : maybe [] (consDefs (nameOf n)) rhs

tyClDefs :: String -> TyClDecl GhcPs -> [Def]
tyClDefs parent d = case d of
  FamDecl {tcdFam = FamilyDecl {fdLName = L l n}} -> [Def (lineOf l) "type" (nameOf n) parent]
  SynDecl {tcdLName = L l n} -> [Def (lineOf l) "type" (nameOf n) parent]
  DataDecl {tcdLName = L l n, tcdDataDefn = defn} ->
    Def (lineOf l) "type" (nameOf n) parent : consDefs (nameOf n) defn
  ClassDecl {tcdLName = L l n, tcdSigs = sigs, tcdMeths = meths, tcdATs = ats} ->
    Def (lineOf l) "class" (nameOf n) parent
      : valueDefs (nameOf n) ([SigD noExtField s | L _ s <- sigs] ++ [ValD noExtField b | L _ b <- bagToList meths])
      ++ [Def (lineOf fl) "type" (nameOf fn) (nameOf n) | L _ FamilyDecl {fdLName = L fl fn} <- ats]

consDefs :: String -> HsDataDefn GhcPs -> [Def]
consDefs parent HsDataDefn {dd_cons = cons} = concatMap (conDefs . unLoc) cons
  where
    conDefs :: ConDecl GhcPs -> [Def]
    conDefs c = case c of
      ConDeclH98 {con_name = L l n, con_args = args} ->
        Def (lineOf l) "function" (nameOf n) parent : fieldDefs (nameOf n) args
      ConDeclGADT {con_names = ns, con_args = args} ->
        [Def (lineOf l) "function" (nameOf n) parent | L l n <- ns]
          ++ concat [fieldDefs (nameOf n) args | L _ n <- take 1 ns]
    fieldDefs :: String -> HsConDeclDetails GhcPs -> [Def]
    fieldDefs con (RecCon (L _ fs)) =
      [ Def (lineOf l) "function" (nameOf (unLoc (rdrNameFieldOcc fo))) con
      | L _ ConDeclField {cd_fld_names = fos} <- fs, L l fo <- fos ]
    fieldDefs _ _ = []
